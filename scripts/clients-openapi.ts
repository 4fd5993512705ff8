/**
 * `npm run clients:openapi`: writes the service's OpenAPI document to clients/openapi.json and
 * regenerates the TypeScript client's types from it (clients/typescript/src/schema.d.ts), so the
 * client cannot drift from the API. test/clients/openapi.drift.test.ts fails until this is rerun
 * after an API change.
 */
import { writeFileSync } from 'node:fs';
import { documentText, openApiDocument } from './openapi-document.js';
import { typesFor } from './openapi-types.js';

const doc = await openApiDocument();
writeFileSync(new URL('../clients/openapi.json', import.meta.url), documentText(doc));
writeFileSync(new URL('../clients/typescript/src/schema.d.ts', import.meta.url), await typesFor(doc));
process.stdout.write('wrote clients/openapi.json and clients/typescript/src/schema.d.ts\n');
