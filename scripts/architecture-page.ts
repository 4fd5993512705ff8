/**
 * The generated parts of docs/architecture.md: the module list (every folder and top-level file
 * of src/, with what it holds), the module graph (which folder imports which, read from the
 * import statements) and the providers (from the registry). `npm run docs:architecture` writes
 * them between their markers; test/docs/architecture.test.ts fails when the page is not current.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { between, providersTable } from './settings-page.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const posix = (path: string) => path.split(sep).join('/');

/**
 * What each folder and top-level file of src/ holds. A folder missing here is listed with a
 * prompt to describe it, so the page (and its test) name every folder there is.
 */
const DESCRIPTIONS: Record<string, string> = {
  'src/main.ts': 'composition root: the only reader of `process.env` (hints for misspelt settings)',
  'src/compose.ts':
    'builds store, rate-limit store, providers, domain, webhooks and HTTP from the configuration',
  'src/cluster.ts': 'one process per core (`WORKERS`), the primary serving the workers’ metrics',
  'src/cli.ts': 'the `contact-verify` command',
  'src/logging.ts': 'JSON logs (pino) with secret-bearing fields redacted',
  'src/heap-growth.ts': 'how far V8 lets the heap grow between full collections, unless the operator says',
  'src/redis-connection.ts': 'one Redis connection as the rate-limit store opens it (fail fast, reconnect)',
  'src/cli': 'the CLI’s operations (keys, accounts, migrations, webhooks) over the same domain',
  'src/config': 'the settings schema: one description validates, masks secrets and writes docs/settings.md',
  'src/domain':
    'the rules, with no HTTP, no SQL, no provider and no configuration import (a lint rule): sends and verifies, limits, risk, the pumping breaker, codes, request parsing, locales and their negotiation, errors (DomainError and its closed list), events, settings, clock',
  'src/domain/channels':
    'the channels as data, one module each, and their registry: destination kind, delivery types, routing, the country window, the message format',
  'src/domain/verification':
    'the verification use cases, one class each over the same dependencies: send (screen, limit, issue, deliver, one record per channel), verify, the resource (read, cancel: [verifications](verifications.md)), the outbox, provider status; `method.ts`, the ways a request is verified, listed once',
  'src/domain/ports':
    'the interfaces the domain needs: storage (implemented by src/store), delivery (by src/delivery) and number lookups (by src/lookup)',
  'src/delivery':
    'the providers’ interfaces, the dispatcher (routing, failover, breakers), SMS routes, the one renderer of every message',
  'src/delivery/locales': 'the built-in texts of every message, one file per locale (docs/locales.md)',
  'src/delivery/outbox': 'the built-in outbox: messages kept as the recipient would see them, sent nowhere',
  'src/delivery/providers':
    'one folder per provider (settings as data, how it is built, its callback routes) and the registry that lists them once',
  'src/http':
    'every HTTP concern: app assembly, schemas (validation and OpenAPI), errors (the one map to statuses and the contract’s body), auth, idempotency, hardening',
  'src/http/routes': 'the routes: parse, call the domain, render',
  'src/http/dashboard': 'the operator dashboard’s sessions (cookie, CSRF), sign-in routes and built files',
  'src/limits': 'the RateLimitStore interface: memory, embedded (SQLite-durable) and Redis stores',
  'src/media':
    'the media of calls this service speaks in: a WebRTC peer (werift) that plays Opus packets as RTP, the committed voice prompts (Ogg Opus) and their media settings',
  'src/lookup':
    'carrier lookups (NumberLookup): the lookup service (shared cache, single-flight, budget, circuit breaker, test numbers), the cache in Redis, the providers’ interface and HTTP client',
  'src/lookup/providers':
    'one folder per lookup provider (settings as data, what it can tell, how it is built) and the registry that lists them once',
  'src/metrics': 'Prometheus metrics, gathered across the workers of a cluster',
  'src/store':
    'the stores: SQLite (default) and PostgreSQL, the change log and its fold into analytics, contacts and webhook deliveries, the sweeper, the destination filter of a single instance, the instance registry',
  'src/store/idempotency': 'Idempotency-Key records, per database',
  'src/store/instances':
    'the instances on a database: their registrations, per database, and the heartbeat that says when several share it without Redis',
  'src/store/lookups': 'the carrier lookups’ cache where no Redis keeps it, per database',
  'src/store/postgres': 'the PostgreSQL store: per-turn batches, migrations, statements',
  'src/store/sessions': 'dashboard sessions, per database',
  'src/store/silent-fallbacks':
    'the fallbacks of SILENT requests (their timeouts and what became of them), per database',
  'src/store/sqlite': 'the SQLite store: group commit, checkpoints, migrations',
  'src/store/webhooks': 'webhook endpoints and deliveries, per database',
  'src/store/whatsapp-calls':
    "WhatsApp call jobs (the code sealed while they wait) and users' call permissions, per database",
  'src/webhooks': 'outbound events: their types and bodies, the delivery worker, signing, the SSRF guard',
};

const isProviderFolder = (path: string) => /^src\/(delivery|lookup)\/providers\/[^/]+$/.test(path);

/** Every folder of src/ (a provider's folder is one of the providers) and its top-level files. */
function modules(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (isProviderFolder(path)) continue;
        out.push(path);
        walk(path);
      } else if (dir === 'src' && entry.name.endsWith('.ts')) out.push(path);
    }
  };
  walk('src');
  return out.sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
}

/** Top-level files first, then folders. */
const order = (path: string) => (path.endsWith('.ts') ? 0 : 1);

/** The module list as a table. */
export function moduleTable(): string {
  const rows = modules().map(
    (path) =>
      `| \`${path}${path.endsWith('.ts') ? '' : '/'}\` | ${DESCRIPTIONS[path] ?? `(describe it in scripts/architecture-page.ts)`} |`,
  );
  return ['| Module | What it holds |', '|---|---|', ...rows].join('\n');
}

/** The unit of the graph a file of src/ belongs to: its top-level folder, or the file itself. */
function unitOf(file: string): string {
  const [, first = ''] = file.split('/');
  return first.endsWith('.ts') ? first.replace(/\.ts$/, '') : first;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Which top-level module imports which, from the import statements of src/. */
export function moduleEdges(): Array<[string, string]> {
  const edges = new Set<string>();
  for (const file of sourceFiles('src')) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)) {
      const target = posix(relative(root, resolve(root, dirname(file), match[1] as string)));
      const resolved = target.replace(/\.js$/, '.ts');
      if (!resolved.startsWith('src/') || !existsSync(join(root, resolved))) continue;
      const [from, to] = [unitOf(file), unitOf(resolved)];
      if (from !== to) edges.add(`${from} ${to}`);
    }
  }
  return [...edges].sort().map((e) => e.split(' ') as [string, string]);
}

/** The module graph as a Mermaid flowchart: arrows from the importer to what it imports. */
export function moduleGraph(): string {
  const lines = moduleEdges().map(([from, to]) => `  ${from} --> ${to}`);
  return ['```mermaid', 'flowchart TD', ...lines, '```'].join('\n');
}

/** docs/architecture.md with its generated parts brought up to date. */
export function architecturePage(current: string): string {
  let page = between(current, 'architecture:modules', moduleTable());
  page = between(page, 'architecture:graph', moduleGraph());
  return between(page, 'architecture:providers', providersTable());
}
