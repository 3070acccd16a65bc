import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SpecOperation } from './openapi';
import { projectRoot } from './project-root';

/**
 * The contract's operations with their Fastify schemas, derived from openapi.yaml ahead of time
 * (`npm run gen:api`) so the server's start parses JSON instead of YAML and dereferencing it.
 */
export function contractOperations(file = join(projectRoot, 'src/server/operations.json')): SpecOperation[] {
  return JSON.parse(readFileSync(file, 'utf8')) as SpecOperation[];
}
