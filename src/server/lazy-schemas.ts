import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Serialize = (data: unknown) => string;
/** A route's schema for one part of a request (or one status of its answers), as Fastify hands it over. */
type RouteSchema = { schema: unknown; method: string; url: string };
type ValidatorFactory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Validate;
type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => Serialize;

/**
 * Fastify's own compilers (Ajv for requests, fast-json-stringify for answers), each schema compiled on
 * the first request that needs it rather than all of them before the server listens: compiling the
 * contract's ~200 schemas up front was a third of the server's start.
 */
export function lazySchemaCompilers(): CompilersFactory {
  const ajvFactory = AjvCompiler() as unknown as ValidatorFactory;
  const fjsFactory = SerializerSelector() as unknown as SerializerFactory;
  const buildValidator: ValidatorFactory = (externalSchemas, ajvOptions) => {
    const compile = ajvFactory(externalSchemas, ajvOptions);
    return (route) => {
      let compiled: Validate | undefined;
      // Fastify reads a failed validation's errors from the function it was given.
      const validate: Validate = (data) => {
        compiled ??= compile(route);
        const valid = compiled(data);
        validate.errors = compiled.errors;
        return valid;
      };
      return validate;
    };
  };
  const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
    const compile = fjsFactory(externalSchemas, serializerOptions);
    return (route) => {
      let compiled: Serialize | undefined;
      return (data) => (compiled ??= compile(route))(data);
    };
  };
  return { buildValidator, buildSerializer } as unknown as CompilersFactory;
}
