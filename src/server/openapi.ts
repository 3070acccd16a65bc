import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from './project-root';

type JsonObject = { [key: string]: unknown };
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An operation of openapi.yaml with the Fastify schema that validates it. */
export interface SpecOperation {
  operationId: string;
  method: 'GET' | 'POST';
  /** The path in Fastify's syntax, e.g. /checkout/api/webhooks/:gateway. */
  url: string;
  /** The path as openapi.yaml writes it. */
  specPath: string;
  tags: string[];
  needsSession: boolean;
  /** The body is an HTML form's (application/x-www-form-urlencoded) rather than JSON. */
  form?: true;
  policy: OperationPolicy;
  schema: {
    querystring?: JsonObject;
    params?: JsonObject;
    headers?: JsonObject;
    body?: JsonObject;
    response: Record<string, JsonObject>;
  };
}

/** What the operation's x- extensions in openapi.yaml ask of the server (each is described at the top of openapi.yaml). */
export interface OperationPolicy {
  /** x-private: the answers carry credentials or personal data (Cache-Control: no-store). */
  private?: true;
  /** x-rate-limit: calls per caller within a window, in @fastify/rate-limit's terms. */
  rateLimit?: { max: number; timeWindow: string };
  /** x-answered-from-memory: never waits at the store gate. */
  answeredFromMemory?: true;
  /** x-cross-site: allowed: a POST from another site is not refused. */
  crossSiteAllowed?: true;
  /** x-shareable-in-render: a page cached for all visitors may embed the answer. */
  shareableInRender?: true;
  /** x-body-limit: the most bytes the body may have, below the server's own limit (larger: 413). */
  bodyLimit?: number;
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;

const POLICY_EXTENSIONS = ['x-private', 'x-rate-limit', 'x-answered-from-memory', 'x-cross-site', 'x-shareable-in-render', 'x-body-limit'];

/** The operation's policy from its x- extensions; an unknown extension or value is refused, so a typo cannot drop a rule. */
export function operationPolicy(operation: JsonObject, method: string, specPath: string): OperationPolicy {
  const where = `${method.toUpperCase()} ${specPath}`;
  const unknown = Object.keys(operation).filter((key) => key.startsWith('x-') && !POLICY_EXTENSIONS.includes(key));
  if (unknown.length) throw new Error(`${where}: unknown extension ${unknown.join(', ')} (known: ${POLICY_EXTENSIONS.join(', ')})`);
  const flag = (key: string): true | undefined => {
    const value = operation[key];
    if (value === undefined) return undefined;
    if (value !== true) throw new Error(`${where}: ${key} is true or absent, not ${JSON.stringify(value)}`);
    return true;
  };
  const limit = operation['x-rate-limit'];
  let rateLimit: OperationPolicy['rateLimit'];
  if (limit !== undefined) {
    const { max, per, ...rest } = isObject(limit) ? limit : {};
    if (!Number.isInteger(max) || (max as number) < 1 || typeof per !== 'string' || !/^[1-9]\d* (second|minute|hour)s?$/.test(per) || Object.keys(rest).length) {
      throw new Error(`${where}: x-rate-limit is { max: <integer >= 1>, per: <n second|minute|hour> }, not ${JSON.stringify(limit)}`);
    }
    rateLimit = { max: max as number, timeWindow: per };
  }
  const crossSite = operation['x-cross-site'];
  if (crossSite !== undefined && crossSite !== 'allowed') throw new Error(`${where}: x-cross-site is allowed or absent, not ${JSON.stringify(crossSite)}`);
  if (crossSite !== undefined && method !== 'post') throw new Error(`${where}: x-cross-site is for a POST (only a POST is checked)`);
  // A page's recorded answer is matched by its path alone: a path with parameters would never match.
  if (operation['x-shareable-in-render'] !== undefined && (method !== 'get' || specPath.includes('{'))) throw new Error(`${where}: x-shareable-in-render is for a GET without path parameters`);
  const bodyLimit = operation['x-body-limit'];
  if (bodyLimit !== undefined && (!Number.isInteger(bodyLimit) || (bodyLimit as number) < 1)) throw new Error(`${where}: x-body-limit is a number of bytes, not ${JSON.stringify(bodyLimit)}`);
  return withoutUndefined({
    private: flag('x-private'),
    rateLimit,
    answeredFromMemory: flag('x-answered-from-memory'),
    crossSiteAllowed: crossSite === 'allowed' ? (true as const) : undefined,
    shareableInRender: flag('x-shareable-in-render'),
    bodyLimit: bodyLimit as number | undefined,
  });
}

/** Where the operations derived from openapi.yaml are kept for the server (written by `npm run gen:api`). */
export const OPERATIONS_FILE = join(projectRoot, 'src/server/operations.json');

/** The operations file's text for the spec as it is now: what `npm run gen:api` writes and a test compares. */
export const operationsJson = (spec: JsonObject = readSpec()): string => `${JSON.stringify(specOperations(spec), null, 1)}\n`;

/** Reads and parses openapi.yaml. */
export function readSpec(file = join(projectRoot, 'openapi.yaml')): JsonObject {
  return parse(readFileSync(file, 'utf8')) as JsonObject;
}

/** Replaces every local $ref with a copy of its target, and drops keywords Fastify's Ajv does not know. */
export function dereference(spec: JsonObject, node: unknown, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => dereference(spec, item, seen));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (seen.includes(ref)) throw new Error(`Circular $ref ${ref}`);
    const target = ref.replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), spec);
    if (target === undefined) throw new Error(`Unresolved $ref ${ref}`);
    const { $ref: _ref, ...siblings } = node;
    return dereference(spec, { ...(target as JsonObject), ...siblings }, [...seen, ref]);
  }
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    // `examples` and `example` are documentation; Ajv's strict mode would refuse `example`.
    if (key === 'example' || key === 'examples') continue;
    copy[key] = dereference(spec, value, seen);
  }
  return copy;
}

/** Every operation of the spec, with request schemas that refuse unknown properties. */
export function specOperations(spec: JsonObject = readSpec()): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [specPath, pathItem] of Object.entries((spec.paths ?? {}) as JsonObject)) {
    for (const [method, rawOperation] of Object.entries(pathItem as JsonObject)) {
      if (method !== 'get' && method !== 'post') throw new Error(`${specPath}: method ${method} is not used by this API`);
      const operation = rawOperation as JsonObject;
      const parameters = ((operation.parameters ?? []) as unknown[]).map((parameter) => dereference(spec, parameter) as JsonObject);
      const group = (where: string, closed: boolean) => {
        const own = parameters.filter((parameter) => parameter.in === where);
        if (own.length === 0) return closed ? { type: 'object', additionalProperties: false, properties: {} } : undefined;
        return {
          type: 'object',
          additionalProperties: !closed,
          properties: Object.fromEntries(own.map((parameter) => [where === 'header' ? String(parameter.name).toLowerCase() : parameter.name, parameter.schema])),
          required: own.filter((parameter) => parameter.required).map((parameter) => (where === 'header' ? String(parameter.name).toLowerCase() : parameter.name)),
        };
      };
      const body = dereference(spec, operation.requestBody) as JsonObject | undefined;
      const bodyContent = body?.content as JsonObject | undefined;
      const formSchema = bodyContent?.['application/x-www-form-urlencoded'] as JsonObject | undefined;
      const bodySchema = (bodyContent?.['application/json'] ?? formSchema) as JsonObject | undefined;
      const response: Record<string, JsonObject> = {};
      for (const [status, rawResponse] of Object.entries((operation.responses ?? {}) as JsonObject)) {
        const resolved = dereference(spec, rawResponse) as JsonObject;
        const json = (resolved.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
        if (json?.schema) response[status] = json.schema as JsonObject;
      }
      const security = (operation.security ?? spec.security ?? []) as JsonObject[];
      operations.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase() as 'GET' | 'POST',
        url: specPath.replace(/\{([^}]+)\}/g, ':$1'),
        specPath,
        tags: (operation.tags ?? []) as string[],
        needsSession: security.some((requirement) => 'session' in requirement),
        ...(formSchema ? { form: true as const } : {}),
        policy: operationPolicy(operation, method, specPath),
        schema: withoutUndefined({
          querystring: group('query', true),
          params: group('path', true),
          headers: group('header', false),
          body: bodySchema?.schema as JsonObject | undefined,
          response,
        }),
      });
    }
  }
  return operations;
}
