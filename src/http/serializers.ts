import type { TSchema } from '@sinclair/typebox';
import fastJson, { type Schema } from 'fast-json-stringify';
import { components } from './components.js';

type Serializer = (data: unknown) => string;

/** What may stand beside a `$ref` without changing what is written: a response's annotations. */
const ANNOTATIONS = new Set(['$ref', 'description', 'examples', 'title']);

/**
 * The serialiser compiler of the application: fast-json-stringify over the named schemas, with
 * one serialiser per named schema however many routes and statuses answer with it. Fastify's own
 * compiler builds one per route and status, and every route answers ten or more error statuses
 * with the same ErrorResponse: building them all was most of the service's start.
 */
export function sharedSerializerCompiler(): (route: { schema: TSchema }) => Serializer {
  const named = Object.fromEntries(
    components().map((schema) => [schema.$id as string, schema as unknown as Schema]),
  );
  const byName = new Map<string, Serializer>();
  return ({ schema }) => {
    const name = typeof schema.$ref === 'string' && Object.keys(schema).every((k) => ANNOTATIONS.has(k));
    if (!name) return fastJson(schema as unknown as Schema, { schema: named }) as Serializer;
    const ref = schema.$ref as string;
    let serializer = byName.get(ref);
    if (!serializer) {
      serializer = fastJson({ $ref: ref }, { schema: named }) as Serializer;
      byName.set(ref, serializer);
    }
    return serializer;
  };
}
