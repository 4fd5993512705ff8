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
 *
 * Each build is given only the named schemas it reaches through its references: fast-json-stringify
 * checks and indexes every external schema it is given, so handing all of them (a hundred or so)
 * to each of the forty builds was most of the start's time and garbage, and the old generation
 * V8 grew for that garbage stayed with the process under load.
 */
export function sharedSerializerCompiler(): (route: { schema: TSchema }) => Serializer {
  const named = new Map(components().map((schema) => [schema.$id as string, schema as unknown as Schema]));
  const byName = new Map<string, Serializer>();
  return ({ schema }) => {
    const name = typeof schema.$ref === 'string' && Object.keys(schema).every((k) => ANNOTATIONS.has(k));
    if (!name)
      return fastJson(schema as unknown as Schema, { schema: reachable(schema, named) }) as Serializer;
    const ref = schema.$ref as string;
    let serializer = byName.get(ref);
    if (!serializer) {
      const root = { $ref: ref };
      serializer = fastJson(root, { schema: reachable(root, named) }) as Serializer;
      byName.set(ref, serializer);
    }
    return serializer;
  };
}

/**
 * The named schemas `schema` refers to, directly or through one another, by name. A reference
 * is a schema's name, optionally followed by a pointer into it (`Name#/properties/x`).
 */
export function reachable(schema: unknown, named: ReadonlyMap<string, Schema>): Record<string, Schema> {
  const found: Record<string, Schema> = {};
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const id = value.split('#')[0] as string;
        const target = named.get(id);
        if (target && !(id in found)) {
          found[id] = target;
          pending.push(target);
        }
      } else if (typeof value === 'object') pending.push(value);
    }
  }
  return found;
}
