import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/app.js';

// A client trickling its body or its headers is cut off.
describe('slow clients', () => {
  let svc: TestService;
  let port: number;
  beforeAll(async () => {
    svc = await startTestService({
      REQUEST_TIMEOUT_SECONDS: '2',
      HEADERS_TIMEOUT_SECONDS: '1',
      KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      CONNECTION_TIMEOUT_SECONDS: '10',
    });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    port = (svc.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => svc.close());

  /** Opens a socket, writes `head` then one byte of `trickle` per second; resolves when closed. */
  const trickle = (head: string, rest: string) =>
    new Promise<{ seconds: number; answer: string }>((resolve) => {
      const started = Date.now();
      let answer = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
      let i = 0;
      const timer = setInterval(() => {
        if (i < rest.length && !socket.destroyed) socket.write(rest[i++] as string);
      }, 1000);
      socket.on('data', (d) => {
        answer += String(d);
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ seconds: (Date.now() - started) / 1000, answer });
      });
    });

  it('cuts off a body sent one byte per second', async () => {
    const body = JSON.stringify({ channel: 'EMAIL', email: 'slow@example.com' }).padEnd(200, ' ');
    const key = await svc.createKey();
    const { seconds, answer } = await trickle(
      `POST /v1/contact/send-code HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n`,
      body,
    );
    // 200 bytes at one a second would take 200 s; the 2 s request timeout ends it.
    expect(seconds).toBeLessThan(30);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/cache-control: no-store/i);
    expect(answer).toContain('"code":"REQUEST_TIMEOUT"');
  }, 60_000);

  it('cuts off headers sent one byte per second', async () => {
    const { seconds } = await trickle(
      'GET /health HTTP/1.1\r\n',
      `Host: x\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`,
    );
    expect(seconds).toBeLessThan(40);
  }, 60_000);
});
