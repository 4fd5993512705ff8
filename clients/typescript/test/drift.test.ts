/**
 * The library held to the service's OpenAPI document ($CV_OPENAPI, else clients/openapi.json): its
 * types are what openapi-typescript generates from that document (so a field, a status or a code
 * added to the service changes them and fails here until `npm run clients:openapi` is rerun), and
 * the values it offers at run time (the enum objects, ERROR_CODES) are the document's enums.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { typesFor } from '../../../scripts/openapi-types.js';
import {
  Channel,
  DeliveryState,
  DeliveryType,
  ERROR_CODES,
  FallbackReason,
  HealthStatus,
  RiskLevel,
  SendEntryStatus,
  VerificationMethod,
  VerificationStatus,
} from '../src/index.js';

const DOCUMENT = process.env.CV_OPENAPI ?? new URL('../../openapi.json', import.meta.url).pathname;
const SCHEMA = new URL('../src/schema.d.ts', import.meta.url);

interface Doc {
  components: { schemas: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> };
}
const load = (): Doc => JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Doc;

/** The library's run-time values of each enum of the document. */
const ENUMS: Record<string, readonly string[]> = {
  Channel: Object.values(Channel),
  DeliveryType: Object.values(DeliveryType),
  VerificationStatus: Object.values(VerificationStatus),
  SendCodeEntryStatus: Object.values(SendEntryStatus),
  RiskLevel: Object.values(RiskLevel),
  HealthStatus: Object.values(HealthStatus),
  VerificationMethod: Object.values(VerificationMethod),
  DeliveryState: Object.values(DeliveryState),
  FallbackReason: Object.values(FallbackReason),
  ErrorCode: ERROR_CODES,
};

/** Every difference between the library and `doc`, one sentence each. */
async function problems(doc: Doc): Promise<string[]> {
  const found: string[] = [];
  if ((await typesFor(doc as never)) !== readFileSync(SCHEMA, 'utf8'))
    found.push('src/schema.d.ts is not what the document generates: run `npm run clients:openapi`');
  for (const [name, values] of Object.entries(ENUMS)) {
    const wanted = doc.components.schemas[name]?.enum ?? [];
    const missing = wanted.filter((v) => !values.includes(v));
    const extra = values.filter((v) => !wanted.includes(v));
    if (missing.length) found.push(`${name}: the document has ${missing.join(', ')}, the library lacks it`);
    if (extra.length) found.push(`${name}: the library has ${extra.join(', ')}, the document does not`);
  }
  if (JSON.stringify(ERROR_CODES) !== JSON.stringify(doc.components.schemas.ErrorCode?.enum))
    found.push('ERROR_CODES is not in the order of the document');
  return found;
}

describe('drift against the OpenAPI document', () => {
  it(`the library matches ${DOCUMENT}`, async () => {
    assert.deepEqual(await problems(load()), []);
  });

  it('a field, a status or a code added to the document is caught', async () => {
    const doc = load();
    const schemas = doc.components.schemas;
    (schemas.SendCodeEntry?.properties as Record<string, unknown>).retryAt = { type: 'string' };
    let found = (await problems(doc)).join('\n');
    assert.match(found, /schema\.d\.ts is not what the document generates/);

    const enums = load();
    enums.components.schemas.VerificationStatus?.enum?.push('locked');
    enums.components.schemas.ErrorCode?.enum?.push('PAYMENT_REQUIRED');
    enums.components.schemas.Channel!.enum = ['EMAIL', 'SMS'];
    found = (await problems(enums)).join('\n');
    assert.match(found, /VerificationStatus: the document has locked/);
    assert.match(found, /ErrorCode: the document has PAYMENT_REQUIRED/);
    assert.match(found, /Channel: the library has WHATSAPP/);
  });
});
