/* global process */
// Preloaded (node --import) by tests/server/traces.test.ts: every OpenTelemetry module the server resolves, ESM or
// CommonJS, is appended to the file OTEL_MODULES_FILE names, so a test can tell whether tracing loaded anything.
import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import Module from 'node:module';

const file = process.env.OTEL_MODULES_FILE;
const isOtel = (specifier) => /(^|[/\\])@opentelemetry[/\\]|(^|[/\\])@fastify[/\\]otel([/\\]|$)/.test(specifier);
const hook = `
import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if ((${isOtel.toString()})(resolved.url)) appendFileSync(${JSON.stringify(file)}, resolved.url + '\\n');
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const resolved = resolveFilename.apply(this, args);
  if (isOtel(resolved)) appendFileSync(file, `${resolved}\n`);
  return resolved;
};
