/**
 * `npm run clients:openapi`: writes the service's OpenAPI document to clients/openapi.json and
 * regenerates the TypeScript client's types from it (clients/typescript/src/schema.d.ts) and the
 * dashboard's run-time enums (dashboard/src/enums.ts), so neither can drift from the API.
 * test/clients/openapi.drift.test.ts fails until this is rerun after an API change.
 */
import { writeFileSync } from 'node:fs';
import { documentText, openApiDocument } from './openapi-document.js';
import { dashboardEnums } from './openapi-enums.js';
import { typesFor } from './openapi-types.js';

const doc = await openApiDocument();
writeFileSync(new URL('../clients/openapi.json', import.meta.url), documentText(doc));
writeFileSync(new URL('../clients/typescript/src/schema.d.ts', import.meta.url), await typesFor(doc));
writeFileSync(new URL('../dashboard/src/enums.ts', import.meta.url), dashboardEnums(doc));
process.stdout.write(
  'wrote clients/openapi.json, clients/typescript/src/schema.d.ts and dashboard/src/enums.ts\n',
);
