import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/app.js';

const CODE_SECRET = 'the-new-code-secret-0123456789abcdef';
const PREVIOUS = 'the-old-code-secret-0123456789abcdef';

function capture() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

// CODE_SECRET_PREVIOUS is for the length of a rotation: forgotten, it keeps an old secret valid
// forever. The operator is told at every start, and /health shows it for as long as it is set.
describe('a code secret rotation in progress', () => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('is logged as a warning at start and shown by /health, never with the secret', async () => {
    const { lines, logger } = capture();
    const startedAt = Date.now();
    svc = await startTestService({ CODE_SECRET, CODE_SECRET_PREVIOUS: PREVIOUS }, { logger });
    const warning = lines.find((l) => l.level === 40 && /CODE_SECRET_PREVIOUS/.test(l.msg));
    expect(warning?.msg).toMatch(/remove it/);
    const res = await svc.get('/health');
    expect(res.status).toBe(200);
    const rotation = res.body.codeSecretRotation;
    expect(rotation).toEqual({
      previousSecrets: 1,
      since: expect.any(String),
      removableAfter: expect.any(String),
    });
    const since = Date.parse(rotation.since);
    expect(since).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(since).toBeLessThanOrEqual(Date.now());
    // The longest lifetime an account may give a code (CODE_TTL_SECONDS at most 1800).
    expect(Date.parse(rotation.removableAfter) - since).toBe(1800 * 1000);
    expect(res.body.status).toBe('ok');
    const everything = JSON.stringify(res.body) + JSON.stringify(lines);
    expect(everything).not.toContain(PREVIOUS);
    expect(everything).not.toContain(CODE_SECRET);
  });

  it('is not reported when CODE_SECRET_PREVIOUS is unset, or is the current secret (and so ignored)', async () => {
    const envs: Array<Record<string, string>> = [
      { CODE_SECRET },
      { CODE_SECRET, CODE_SECRET_PREVIOUS: CODE_SECRET },
    ];
    for (const env of envs) {
      const { lines, logger } = capture();
      svc = await startTestService(env, { logger });
      expect(lines.filter((l) => /CODE_SECRET_PREVIOUS/.test(l.msg))).toEqual([]);
      expect((await svc.get('/health')).body).not.toHaveProperty('codeSecretRotation');
      await svc.close();
      svc = undefined;
    }
  });
});
