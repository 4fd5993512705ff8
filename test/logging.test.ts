import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logging.js';

/** The service's logger writing into an array of parsed lines. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = {
    write(chunk: string) {
      for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    },
  };
  return { logger: createLogger('info', sink), lines };
}

describe('createLogger', () => {
  it('redacts codes, keys and authorization headers at the paths where they could appear', () => {
    const { logger, lines } = capture();
    logger.info({ code: '123456', otpCode: '654321', key: 'cvk_live_x', token: 't' }, 'top level');
    logger.info({ body: { code: '123456', otpCode: '654321' } }, 'a request body');
    logger.info({ req: { headers: { authorization: 'Bearer cvk_live_x' } } }, 'a request');
    logger.info({ headers: { authorization: 'Bearer cvk_live_x' } }, 'headers');
    const text = JSON.stringify(lines);
    for (const secret of ['123456', '654321', 'cvk_live_x', '"t"']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ code: '[redacted]', otpCode: '[redacted]', key: '[redacted]' });
    expect(lines[1]).toMatchObject({ body: { code: '[redacted]', otpCode: '[redacted]' } });
    expect(lines[2]).toMatchObject({ req: { headers: { authorization: '[redacted]' } } });
  });

  it('keeps fields that only look alike', () => {
    const { logger, lines } = capture();
    logger.info({ err: { code: 'ECONNREFUSED' }, requestId: 'r1' }, 'delivery failed');
    expect(lines[0]).toMatchObject({ err: { code: 'ECONNREFUSED' }, requestId: 'r1' });
  });
});
