/**
 * The answers of openapi.yaml, for checking what the fake API feeds the views. (tests/api/contract.ts
 * reads the file through a URL that happy-dom's URL breaks, so the DOM tests read it here.)
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormatsImport from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const spec = parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../openapi.yaml'), 'utf8')) as Json;
const SCHEMA_BASE = 'https://tvc.test/schemas/';

/** Follows local $refs (responses, schemas) to their target. */
function resolve(node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && !current.$ref.startsWith('#/components/schemas/'); hops++) {
    if (hops > 10) throw new Error('Too many $ref hops');
    current = current.$ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), spec);
  }
  return current;
}

/** Schema refs pointed at the component schemas registered with Ajv; `example` is documentation. */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (!isObject(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example')
      .map(([key, value]) => [key, key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', SCHEMA_BASE) : forAjv(value)]),
  );
}

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }));
for (const [name, schema] of Object.entries((spec.components as Json).schemas as Json)) ajv.addSchema(forAjv(schema) as Json, `${SCHEMA_BASE}${name}`);

const validators = new Map<string, ValidateFunction | null>();

/** Why this answer is not one openapi.yaml allows for the operation, or null when it is. */
export function contractError(method: string, path: string, status: number, body: unknown): string | null {
  const operation = (spec.paths as Json)[path];
  const declared = isObject(operation) ? (operation[method.toLowerCase()] as Json | undefined) : undefined;
  if (!declared) return `openapi.yaml has no ${method} ${path}`;
  const key = `${method} ${path} ${status}`;
  if (!validators.has(key)) {
    const response = resolve((declared.responses as Json)[String(status)]);
    const schema = isObject(response) ? ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema : undefined;
    validators.set(key, schema === undefined ? null : ajv.compile(forAjv(resolve(schema)) as Json));
  }
  const validate = validators.get(key);
  if (!validate) return `openapi.yaml declares no ${status} (with a JSON body) for ${method} ${path}`;
  return validate(body) ? null : `${method} ${path} ${status} does not match openapi.yaml: ${ajv.errorsText(validate.errors)} ${JSON.stringify(body)}`;
}
