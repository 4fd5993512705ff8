import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peersProblem, ScratchPostgres } from '../../../scripts/chaos/peers.js';
import { ADMIN_TOKEN, freePort, freshInstall, OPERATIONS_DOC, runDocumented } from '../../support/ops.js';
import { startServer } from '../../support/process.js';
import { recordSkip } from '../../support/skips.js';

/**
 * docs/operations.md, "PostgreSQL over TLS", against a PostgreSQL of this test's own (initdb in a
 * scratch directory, its own port; the machine's shared server is never touched) that has
 * `ssl = on`, a certificate from a CA made here, and refuses every connection without TLS. Each
 * `sslmode` of the table is tried with `contact-verify migrate`, then the service starts with the
 * recommended one and its connections are seen encrypted by the server.
 */

const problem = peersProblem();
if (problem && process.env.CI !== 'true') recordSkip(`a PostgreSQL of its own needs ${problem}`);
const scratch = mkdtempSync(join(tmpdir(), 'cv-tls-'));
// PostgreSQL runs as its own user when the tests run as root: it must reach its directory.
chmodSync(scratch, 0o755);
beforeAll(freshInstall, 600_000);
let server: ScratchPostgres | null = null;
afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A CA and a server certificate for localhost and 127.0.0.1 signed by it, made with openssl. */
function certificates(dir: string): { ca: string; otherCa: string; cert: string; key: string } {
  mkdirSync(dir, { recursive: true });
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=cv-test-ca');
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'other.key',
    '-out',
    'other.pem',
    '-days',
    '2',
    '-subj',
    '/CN=cv-other-ca',
  );
  ssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'san.cnf',
  );
  return {
    ca: join(dir, 'ca.pem'),
    otherCa: join(dir, 'other.pem'),
    cert: join(dir, 'server.crt'),
    key: join(dir, 'server.key'),
  };
}

describe.skipIf(problem !== null && process.env.CI !== 'true')('PostgreSQL over TLS', () => {
  it('connects with sslmode as the table says, and the service runs over TLS only', async () => {
    if (problem) throw new Error(problem);
    const port = await freePort();
    const dir = join(scratch, 'pg');
    server = await ScratchPostgres.start(dir, port);
    const files = certificates(join(scratch, 'certs'));
    const data = join(dir, 'data');
    const owner = statSync(data);
    for (const [from, to] of [
      [files.cert, 'server.crt'],
      [files.key, 'server.key'],
    ] as const) {
      copyFileSync(from, join(data, to));
      chownSync(join(data, to), owner.uid, owner.gid);
      chmodSync(join(data, to), 0o600);
    }
    appendFileSync(
      join(data, 'postgresql.auto.conf'),
      "ssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\n",
    );
    writeFileSync(
      join(data, 'pg_hba.conf'),
      'local all all trust\nhostssl all all 127.0.0.1/32 trust\nhostnossl all all 0.0.0.0/0 reject\n',
    );
    await server.down('fast');
    await server.up();

    const base = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const migrate = (query: string) =>
      runDocumented('npx contact-verify migrate', { DATABASE_URL: `${base}${query}`, ADMIN_TOKEN });
    const cases: Array<{ query: string; documented: string; ok: boolean; output?: RegExp }> = [
      { query: '', documented: 'sslmode=disable', ok: false, output: /no encryption/ },
      {
        query: `?sslmode=verify-full&sslrootcert=${files.ca}`,
        documented: 'sslmode=verify-full&sslrootcert=',
        ok: true,
      },
      {
        query: `?sslmode=verify-full&sslrootcert=${files.otherCa}`,
        documented: 'sslmode=verify-full&sslrootcert=',
        ok: false,
        output: /certificate/,
      },
      {
        query: '?sslmode=verify-full',
        documented: '`sslmode=verify-full`',
        ok: false,
        output: /certificate/,
      },
      { query: '?sslmode=require', documented: '`sslmode=require`', ok: false, output: /certificate/ },
      { query: '?sslmode=no-verify', documented: '`sslmode=no-verify`', ok: true },
      {
        query: '?uselibpqcompat=true&sslmode=require',
        documented: '`uselibpqcompat=true&sslmode=require`',
        ok: true,
      },
    ];
    for (const c of cases) {
      expect(OPERATIONS_DOC).toContain(c.documented);
      const result = await migrate(c.query);
      expect(result.code === 0, `${c.query}: ${result.output}`).toBe(c.ok);
      if (c.output) expect(result.output, c.query).toMatch(c.output);
    }

    const running = await startServer({
      DATABASE_URL: `${base}?sslmode=verify-full&sslrootcert=${files.ca}`,
      ADMIN_TOKEN,
    });
    try {
      const health = await fetch(`${running.url}/health`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { services: { database: string } }).services.database).toBe('up');
      const client = new pg.Client({
        connectionString: `${base}?sslmode=verify-full&sslrootcert=${files.ca}`,
      });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT count(*)::int AS n, bool_and(s.ssl) AS encrypted FROM pg_stat_ssl s
             JOIN pg_stat_activity a USING (pid) WHERE a.backend_type = 'client backend'`,
        );
        // This connection and at least one of the service's pool, every one encrypted.
        expect(rows[0]).toMatchObject({ encrypted: true });
        expect(rows[0].n).toBeGreaterThanOrEqual(2);
      } finally {
        await client.end();
      }
    } finally {
      running.child.kill('SIGTERM');
      await running.exited;
    }
  }, 180_000);
});
