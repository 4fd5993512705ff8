import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';

/**
 * The named schemas of the API: each is defined once with `component`, registered with
 * `app.addSchema` (buildApp registers every one), and used elsewhere through `ref`. Fastify
 * validates and serialises with them, and @fastify/swagger emits them as
 * `#/components/schemas/<name>`, so clients generated from the document get the same names.
 */
const COMPONENTS = new Map<string, TSchema>();

/** Names a schema; the name is its `$id` and its key under `components.schemas`. */
export function component<T extends TSchema>(name: string, schema: T): T {
  if (COMPONENTS.has(name)) throw new Error(`the schema ${name} is defined twice`);
  const named = { ...schema, $id: name } as T;
  COMPONENTS.set(name, named);
  return named;
}

/** Every named schema, in the order of definition. */
export const components = (): TSchema[] => [...COMPONENTS.values()];

/** What may stand beside a reference (JSON Schema annotations, not constraints). */
export interface RefAnnotations {
  description?: string;
  default?: unknown;
  examples?: unknown[];
}

/**
 * A reference to a named schema, typed as it. Annotations (a field's own description) are kept in
 * an `allOf` of the one reference, since @fastify/swagger drops the siblings of a `$ref`; the
 * document's last step (`referencesWithAnnotations` in openapi.ts) turns it back into a plain
 * `$ref` with its annotations, as OpenAPI 3.1 allows.
 */
export function ref<T extends TSchema>(schema: T, annotations?: RefAnnotations): TUnsafe<Static<T>> {
  const name = schema.$id;
  if (!name || COMPONENTS.get(name) !== schema) throw new Error('ref() takes a schema made by component()');
  return annotations
    ? Type.Unsafe<Static<T>>({ allOf: [{ $ref: name }], ...annotations })
    : Type.Unsafe<Static<T>>(Type.Ref(name));
}

/** The answer `{data: <schema>}` every successful call of the API has, named. */
export const envelope = (name: string, data: TSchema, description?: string) =>
  component(name, Type.Object({ data }, description ? { description } : {}));

/** A string enumeration, named: clients get one type for it. */
export const enumeration = <T extends readonly string[]>(name: string, values: T, description: string) =>
  component(name, Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description }));
