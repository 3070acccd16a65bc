import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecOperation } from './openapi';
import { projectRoot } from './project-root';

const CONTRACT_FILE = join(projectRoot, 'src/server/operations.json');

/**
 * The contract's operations with their Fastify schemas and their policy (openapi.yaml's x- extensions), derived
 * from openapi.yaml ahead of time (`npm run gen:api`) so the server's start parses JSON instead of YAML and
 * dereferencing it.
 */
export function contractOperations(file = CONTRACT_FILE): SpecOperation[] {
  return JSON.parse(readFileSync(file, 'utf8')) as SpecOperation[];
}

/** The paths whose answers a page cached for all visitors may embed (x-shareable-in-render). */
export function shareableInRender(operations: SpecOperation[]): ReadonlySet<string> {
  return new Set(operations.filter((operation) => operation.policy.shareableInRender).map((operation) => operation.url));
}
