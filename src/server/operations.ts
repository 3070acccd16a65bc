import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecOperation } from './openapi';
import { projectRoot } from './project-root';

const CONTRACT_FILE = join(projectRoot, 'src/server/operations.json');

/** The contract's shareable URLs as the last start read them (the page render asks for them on every page). */
let shareableUrls: ReadonlySet<string> | undefined;

/**
 * The contract's operations with their Fastify schemas and their policy (openapi.yaml's x- extensions), derived
 * from openapi.yaml ahead of time (`npm run gen:api`) so the server's start parses JSON instead of YAML and
 * dereferencing it.
 */
export function contractOperations(file = CONTRACT_FILE): SpecOperation[] {
  const operations = JSON.parse(readFileSync(file, 'utf8')) as SpecOperation[];
  if (file === CONTRACT_FILE) shareableUrls = shareableOf(operations);
  return operations;
}

const shareableOf = (operations: SpecOperation[]): ReadonlySet<string> =>
  new Set(operations.filter((operation) => operation.policy.shareableInRender).map((operation) => operation.url));

/** The paths whose answers a page cached for all visitors may embed (x-shareable-in-render), from the contract the server read at start. */
export function shareableInRender(): ReadonlySet<string> {
  return shareableUrls ?? shareableOf(contractOperations());
}
