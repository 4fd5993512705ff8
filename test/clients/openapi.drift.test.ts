import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../clients/typescript/src/index.js';
import { documentText, openApiDocument } from '../../scripts/openapi-document.js';
import { dashboardEnums } from '../../scripts/openapi-enums.js';
import { typesFor } from '../../scripts/openapi-types.js';

const committed = (path: string) => readFileSync(new URL(`../../clients/${path}`, import.meta.url), 'utf8');

describe('the clients follow the OpenAPI document', () => {
  it("clients/openapi.json, the TypeScript types and the dashboard's enums are what the service answers now", async () => {
    const doc = await openApiDocument();
    const hint = 'the API changed: run `npm run clients:openapi` and commit the result';
    expect(committed('openapi.json'), hint).toBe(documentText(doc));
    expect(committed('typescript/src/schema.d.ts'), hint).toBe(await typesFor(doc));
    const enums = readFileSync(new URL('../../dashboard/src/enums.ts', import.meta.url), 'utf8');
    expect(enums, hint).toBe(dashboardEnums(doc));
  });

  it("the TypeScript client's error codes are the document's ErrorCode enum, in its order", () => {
    const doc = JSON.parse(committed('openapi.json'));
    expect([...ERROR_CODES]).toEqual(doc.components.schemas.ErrorCode.enum);
  });
});
