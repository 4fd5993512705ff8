import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/app.js';

type Operation = {
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
};

describe('the examples of the OpenAPI document', () => {
  let svc: TestService;
  let key: string;
  let examples: Array<{ path: string; name: string; value: unknown }>;

  beforeAll(async () => {
    // PUBLIC_BASE_URL: the example with a magic link needs it.
    svc = await startTestService({
      RESEND_COOLDOWN_SECONDS: '0',
      PUBLIC_BASE_URL: 'https://verify.example.test',
    });
    key = await svc.createKey();
    const doc = (await svc.get('/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    examples = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.values(operations).flatMap((op) =>
        Object.entries(op.requestBody?.content?.['application/json']?.examples ?? {}).map(([name, e]) => ({
          path,
          name,
          value: e.value,
        })),
      ),
    );
  });
  afterAll(() => svc.close());

  it('name each way of sending and a verification', () => {
    expect(examples.map((e) => `${e.path} ${e.name}`)).toEqual(
      expect.arrayContaining([
        '/v1/contact/send-code singleEmail',
        '/v1/contact/send-code emailWithLink',
        '/v1/contact/send-code singleSms',
        '/v1/contact/send-code dual',
        '/v1/contact/send-code voiceCall',
        '/v1/contact/verify-code verify',
      ]),
    );
  });

  it('are accepted by the service as they stand', async () => {
    for (const { path, name, value } of examples.filter((e) => e.path.startsWith('/v1/contact/'))) {
      const res = await svc.post(path, value, key);
      // send-code sends; verify-code's example names a request that does not exist here, so a
      // 404 is its answer to a well-formed body.
      const expected = path.endsWith('send-code') ? 200 : 404;
      expect(res.status, `${path} ${name}: ${JSON.stringify(res.body)}`).toBe(expected);
    }
  });
});
