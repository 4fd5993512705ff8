/** Reading the OpenAPI document in tests: its named schemas are references. */

export type OpenApiDoc = any;

/** The schema a `$ref` names (`#/components/schemas/<name>`), or the schema itself. */
export function deref(doc: OpenApiDoc, schema: any): any {
  let current = schema;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 10) throw new Error(`a reference cycle at ${schema.$ref}`);
    const name = current.$ref.replace('#/components/schemas/', '');
    current = doc.components.schemas[name];
    if (!current) throw new Error(`no schema ${name}`);
  }
  return current;
}

/** The document with every reference replaced by what it names: for text searches. */
export function inlined(doc: OpenApiDoc, node: unknown = doc, depth = 0): unknown {
  if (depth > 40) return node;
  if (Array.isArray(node)) return node.map((n) => inlined(doc, n, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const target = '$ref' in node ? deref(doc, node) : node;
  return Object.fromEntries(Object.entries(target).map(([k, v]) => [k, inlined(doc, v, depth + 1)]));
}

/** The properties an object schema gives, its references followed and an allOf's members merged. */
export function propertiesOf(doc: OpenApiDoc, schema: unknown): Record<string, any> {
  const target = deref(doc, schema);
  const own = Object.fromEntries(
    Object.entries(target.properties ?? {}).map(([name, value]) => [name, deref(doc, value)]),
  );
  return Object.assign({}, ...(target.allOf ?? []).map((member: unknown) => propertiesOf(doc, member)), own);
}
