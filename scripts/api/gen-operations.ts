/** Writes src/server/operations.json from openapi.yaml (part of `npm run gen:api`). */
import { writeFileSync } from 'node:fs';
import { OPERATIONS_FILE, operationsJson } from '../../src/server/openapi';

writeFileSync(OPERATIONS_FILE, operationsJson());
console.log(`wrote ${OPERATIONS_FILE}`);
