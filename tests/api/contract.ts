import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormatsImport from 'ajv-formats';
import { parse } from 'yaml';

/**
 * openapi.yaml read on its own (not through the server's loader), compiled with Ajv 2020, so the tests
 * check the server against the contract rather than against the server's own reading of it.
 */

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export const spec = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as Json;

const SCHEMA_BASE = 'https://tvc.test/schemas/';

/** Follows a local $ref (parameters, responses, request bodies) to its target. */
function resolve(node: unknown): Json {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error('Too many $ref hops');
    const path = current.$ref.replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), spec);
  }
  if (!isObject(current)) throw new Error(`Unresolved reference ${JSON.stringify(node)}`);
  return current;
}

/** A schema with its $ref (and that target's own $ref) followed; the referring node's siblings are kept. */
export function followRef(schema: unknown): Json {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref !== 'string') return schema;
  const { $ref: _ref, ...siblings } = schema;
  return { ...followRef(resolve({ $ref: schema.$ref })), ...siblings };
}

/** Points schema refs at the component schemas registered with Ajv; `example` is documentation. */
function forAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forAjv);
  if (!isObject(node)) return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example') continue;
    copy[key] = key === '$ref' && typeof value === 'string' ? value.replace('#/components/schemas/', SCHEMA_BASE) : forAjv(value);
  }
  return copy;
}

const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;
export const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true }));
for (const [name, schema] of Object.entries((spec.components as Json).schemas as Json)) {
  ajv.addSchema(forAjv(schema) as Json, `${SCHEMA_BASE}${name}`);
}

export interface SpecParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Json;
  example?: unknown;
}

/** An operation of openapi.yaml as the tests see it. */
export interface ContractOperation {
  operationId: string;
  method: 'GET' | 'POST';
  /** As openapi.yaml writes it, e.g. /checkout/api/webhooks/{gateway}. */
  path: string;
  /** In Fastify's syntax, e.g. /checkout/api/webhooks/:gateway. */
  url: string;
  matches(path: string): Record<string, string> | null;
  needsSession: boolean;
  parameters: SpecParameter[];
  body: { required: boolean; schema: Json; examples: unknown[] } | null;
  /** Declared response statuses, e.g. ['200', '400']. */
  statuses: string[];
  /** Declared responses by status, references resolved. */
  responses: Record<string, Json>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readOperations(): ContractOperation[] {
  const found: ContractOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    for (const [method, raw] of Object.entries(item as Json)) {
      const operation = raw as Json;
      const names: string[] = [];
      const pattern = new RegExp(`^${path.split(/(\{[^}]+\})/).map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (!name) return escapeRegExp(part);
        names.push(name);
        return '([^/]*)';
      }).join('')}$`);
      const requestBody = operation.requestBody ? resolve(operation.requestBody) : null;
      const content = requestBody ? requestBody.content as Json : null;
      // A body is JSON, or an HTML form's for the one operation a server page posts to (useSignInLink).
      const json = content ? (content['application/json'] ?? content['application/x-www-form-urlencoded']) as Json : null;
      const security = (operation.security ?? spec.security ?? []) as Json[];
      found.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase() as 'GET' | 'POST',
        path,
        url: path.replace(/\{([^}]+)\}/g, ':$1'),
        matches(candidate) {
          const match = pattern.exec(candidate);
          return match ? Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')])) : null;
        },
        needsSession: security.some((requirement) => 'session' in requirement),
        parameters: ((operation.parameters ?? []) as unknown[]).map((parameter) => resolve(parameter) as unknown as SpecParameter),
        body: json ? {
          required: requestBody?.required === true,
          schema: json.schema as Json,
          examples: Object.values((json.examples ?? {}) as Json).map((example) => resolve(example).value),
        } : null,
        statuses: Object.keys(operation.responses as Json),
        responses: Object.fromEntries(Object.entries(operation.responses as Json).map(([status, response]) => [status, resolve(response)])),
      });
    }
  }
  return found;
}

export const operations = readOperations();

export function operation(operationId: string): ContractOperation {
  const found = operations.find((candidate) => candidate.operationId === operationId);
  if (!found) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return found;
}

export function findOperation(method: string, path: string): ContractOperation | undefined {
  return operations.find((candidate) => candidate.method === method.toUpperCase() && candidate.matches(path) !== null);
}

/**
 * Answers the server gives that openapi.yaml does not declare yet. Each is reported to the contract's
 * owner; a test fails as soon as the contract declares one, so the entry is then removed here.
 */
export const KNOWN_CONTRACT_GAPS: { operationId: string; status: string; why: string }[] = [];

const responseValidators = new Map<string, ValidateFunction>();

function responseValidator(op: ContractOperation, status: string): ValidateFunction | null {
  const key = `${op.operationId} ${status}`;
  const cached = responseValidators.get(key);
  if (cached) return cached;
  const declared = op.responses[status];
  let schema: unknown;
  if (declared) {
    schema = ((declared.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
    if (!schema) return null;
  } else if (KNOWN_CONTRACT_GAPS.some((gap) => gap.operationId === op.operationId && gap.status === status)) {
    schema = { $ref: '#/components/schemas/Error' };
  } else {
    return null;
  }
  const validate = ajv.compile(forAjv(schema) as Json);
  responseValidators.set(key, validate);
  return validate;
}

/** Every (operationId, status) whose real answer was validated against the contract in this test file. */
export const validatedResponses = new Map<string, Set<string>>();

/**
 * Checks a real answer against the schema openapi.yaml declares for its status; throws on an undeclared
 * status or a body that does not match. Records what was validated.
 */
export function assertMatchesContract(op: ContractOperation, status: number, body: unknown, contentType = 'application/json'): void {
  const key = String(status);
  const declared = op.statuses.includes(key) || KNOWN_CONTRACT_GAPS.some((gap) => gap.operationId === op.operationId && gap.status === key);
  if (!declared) {
    throw new Error(`${op.operationId} answered ${status}, which openapi.yaml does not declare for it: ${JSON.stringify(body)}`);
  }
  const content = (op.responses[key]?.content ?? null) as Json | null;
  const mediaType = contentType.split(';')[0]?.trim() ?? '';
  // A redirect declares no content and carries no body; an HTML page is declared as text/html.
  if (op.statuses.includes(key) && (content === null || (mediaType !== 'application/json' && mediaType in content))) {
    if (content === null && body !== undefined) throw new Error(`${op.operationId} ${status} declares no content but answered ${JSON.stringify(body)}`);
    record(op, key);
    return;
  }
  const validate = responseValidator(op, key);
  if (!validate) throw new Error(`openapi.yaml declares no JSON schema for ${op.operationId} ${status}`);
  if (!validate(body)) {
    throw new Error(`${op.operationId} ${status} does not match openapi.yaml: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
  record(op, key);
}

function record(op: ContractOperation, status: string): void {
  const seen = validatedResponses.get(op.operationId) ?? new Set<string>();
  seen.add(status);
  validatedResponses.set(op.operationId, seen);
}

/** The parts of a request, as the contract describes them. */
export interface RequestParts {
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  /** Absent means no body was sent. */
  body?: unknown;
}

const requestValidators = new Map<string, ValidateFunction>();

/**
 * A validator of a whole request against the contract: query parameters and the body are closed
 * (unknown ones are refused, as openapi.yaml says), headers are open.
 */
export function requestValidator(op: ContractOperation): ValidateFunction {
  const cached = requestValidators.get(op.operationId);
  if (cached) return cached;
  const group = (where: SpecParameter['in'], closed: boolean) => {
    const own = op.parameters.filter((parameter) => parameter.in === where);
    const name = (parameter: SpecParameter) => (where === 'header' ? parameter.name.toLowerCase() : parameter.name);
    return {
      type: 'object',
      additionalProperties: !closed,
      properties: Object.fromEntries(own.map((parameter) => [name(parameter), forAjv(parameter.schema)])),
      required: own.filter((parameter) => parameter.required).map(name),
    };
  };
  const schema = {
    type: 'object',
    properties: {
      query: group('query', true),
      params: group('path', true),
      headers: group('header', false),
      ...(op.body ? { body: forAjv(op.body.schema) } : {}),
    },
    required: ['query', 'params', 'headers', ...(op.body?.required ? ['body'] : [])],
  };
  const validate = ajv.compile(schema);
  requestValidators.set(op.operationId, validate);
  return validate;
}

/** True when the request is valid for the operation according to openapi.yaml. */
export function isValidRequest(op: ContractOperation, parts: RequestParts): boolean {
  const { body, ...rest } = parts;
  const request: Json = { query: rest.query ?? {}, params: rest.params ?? {}, headers: lowerKeys(rest.headers ?? {}) };
  if ('body' in parts) request.body = body;
  return requestValidator(op)(request);
}

const lowerKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value]));
