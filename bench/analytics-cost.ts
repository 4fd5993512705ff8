/**
 * What recording events for analytics and scoring risk cost a send and a verify (issue 16's
 * budget: at most +10 % of server CPU each). Exports this commit three times and switches the
 * analytics off in two copies, then measures the three with bench/service-hotpath.ts (a process
 * per tree, waves taking turns) for EMAIL and for SMS, and writes docs/benchmark-analytics-cost.md.
 * The second "off" copy is the control: identical to the first, its difference from it is what
 * the method cannot tell apart from noise.
 *
 *   npm run bench:analytics-cost [-- --rounds=3 --requests=8000]
 *
 * "Off" keeps what the webhooks need (issue 17: a journal row for each state change, written by
 * the triggers with the change) and removes what only analytics, contacts and risk need: the risk
 * screen (its read, the score, the contact id; a constant low score instead), the store's choice
 * of the contact id a request names, the count of wrong codes on their requests, the batch fold
 * (buckets and contacts) and the per-country hour counter. Each switch is a text replacement that
 * must match exactly once, so a change to those lines stops this script instead of measuring
 * something else.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { arg } from './args.js';

const HERE = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROUNDS = Number(arg('rounds', '3'));
const REQUESTS = arg('requests', '8000');
const PAGE = join(HERE, 'docs/benchmark-analytics-cost.md');

/** A switch: [file, text, replacement]; or a migration run last, to drop what it names. */
type Switch = [string, string, string];
const SCREEN: Switch = [
  'src/domain/verification-service.ts',
  'const screened = await this.screen(key, request, targets, s, now);',
  "const screened = targets.map(() => ({ risk: { score: 0, level: 'low' as const, signals: [] }, contactId: null as unknown as string }));",
];
// Without contacts a request names none: the insert keeps its placeholders, in their order.
const KEPT_CONTACT_ID: Switch = [
  'src/store/contacts.ts',
  `coalesce(\${contactIdOf(account, destination, test)},
    (SELECT w.contact_id FROM verifications w WHERE w.destination = \${destination} AND w.account_id = \${account}
      AND w.test = \${test} AND w.contact_id IS NOT NULL LIMIT 1),
    \${proposed})`,
  '(CASE WHEN ${account} || ${destination} || ${test} || ${destination} || ${account} || ${test} IS NULL THEN NULL ELSE ${proposed} END)',
];
const WRONG_CODES: Switch = [
  'src/store/sqlite/sqlite-store.ts',
  'if (counted && request && winnerId === null) this.stmts.countWrongCode.run(request.id);',
  '',
];
const FOLD: Switch = [
  'src/store/webhooks/sqlite.ts',
  'const folded = Math.min(this.fold.run(batchSize), batchSize);',
  'const folded = 0;',
];
// The fold's last two statements are the contacts' (src/store/fold.ts).
const CONTACTS: Switch = [
  'src/store/sqlite/fold.ts',
  'upserts: sql.upserts.map((text) => db.prepare(text)),',
  'upserts: sql.upserts.slice(0, -2).map((text) => db.prepare(text)),',
];
const COUNTRY_HOUR = 'DROP TRIGGER country_window_sent;\nDROP TRIGGER country_window_verified;\n';

/**
 * The trees measured side by side. "off" and "control" (the same) have the analytics switched
 * off; "on" is this commit. With --parts, two more show where the cost is: this commit without
 * the contacts' part of the fold, and without counting wrong codes (each a measurement
 * only: the contacts or wrong codes are then not counted).
 */
const PARTS = process.argv.includes('--parts');
const TREES: Record<string, { switches: Switch[]; migration?: string }> = {
  off: { switches: [SCREEN, KEPT_CONTACT_ID, WRONG_CODES, FOLD], migration: COUNTRY_HOUR },
  control: { switches: [SCREEN, KEPT_CONTACT_ID, WRONG_CODES, FOLD], migration: COUNTRY_HOUR },
  on: { switches: [] },
  ...(PARTS
    ? {
        'on-no-contacts': { switches: [CONTACTS, KEPT_CONTACT_ID] },
        'on-no-wrong-codes': { switches: [WRONG_CODES] },
      }
    : {}),
};

function exportTree(dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive HEAD | tar -x -C '${dir}'`], { cwd: HERE });
  symlinkSync(join(HERE, 'node_modules'), join(dir, 'node_modules'));
}

function apply(dir: string, switches: Switch[], migration?: string): void {
  for (const [file, text, replacement] of switches) {
    const path = join(dir, file);
    const source = readFileSync(path, 'utf8');
    if (source.split(text).length !== 2)
      throw new Error(`${file}: the line to switch off is not there once: ${text}`);
    writeFileSync(path, source.replace(text, replacement));
  }
  if (migration) writeFileSync(join(dir, 'migrations/sqlite/999_analytics_off.sql'), migration);
}

interface Phase {
  [tree: string]: { us: number; ratios: number[] };
}
interface Run {
  channel: string;
  failures: number;
  send: Phase;
  verify: Phase;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const pct = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(1)} %`;

const work = mkdtempSync(join(tmpdir(), 'cv-cost-'));
const runs: Run[] = [];
try {
  const dirs = Object.fromEntries(Object.keys(TREES).map((t) => [t, join(work, t)]));
  for (const [t, { switches, migration }] of Object.entries(TREES)) {
    exportTree(dirs[t] as string);
    apply(dirs[t] as string, switches, migration);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const channel of ['EMAIL', 'SMS']) {
      const out = execFileSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(HERE, 'bench/service-hotpath.ts'),
          `--trees=${Object.keys(TREES)
            .map((t) => `${t}=${dirs[t]}`)
            .join(',')}`,
          `--requests=${REQUESTS}`,
          `--channel=${channel}`,
        ],
        { cwd: HERE, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      const run = JSON.parse(out.trim().split('\n').at(-1) as string) as Run;
      if (run.failures > 0) throw new Error(`${run.failures} requests did not answer 200 (${channel})`);
      runs.push(run);
      const line = (kind: 'send' | 'verify') =>
        `${kind}: ${Object.keys(TREES)
          .map((t) => `${t} ${run[kind][t]?.us} µs (${run[kind][t]?.ratios.join(', ')})`)
          .join('; ')}`;
      console.log(`round ${round} ${channel}: ${line('send')}; ${line('verify')}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: HERE, encoding: 'utf8' }).trim();
const rows = (['EMAIL', 'SMS'] as const).flatMap((channel) =>
  (['send', 'verify'] as const).map((kind) => {
    const mine = runs.filter((r) => r.channel === channel);
    const us = (tree: string) => median(mine.map((r) => r[kind][tree]?.us ?? 0));
    // A round's ratio is of its totals (every wave's CPU, the lumpy ones too), the median of rounds shown.
    const ratio = (tree: string) =>
      median(mine.map((r) => (r[kind][tree]?.us ?? 0) / (r[kind].off?.us ?? 1)));
    const range = (tree: string) => {
      const blocks = mine.flatMap((r) => r[kind][tree]?.ratios ?? []);
      return `${pct(Math.min(...blocks))} … ${pct(Math.max(...blocks))}`;
    };
    const others = Object.keys(TREES).filter((t) => t !== 'off');
    return `| ${channel} | ${kind} | ${us('off').toFixed(0)} | ${others.map((t) => `${us(t).toFixed(0)}: **${pct(ratio(t))}** (${range(t)})`).join(' | ')} |`;
  }),
);
writeFileSync(
  PAGE,
  `# Benchmark: what analytics and risk cost a send and a verify

<!-- Generated by \`npm run bench:analytics-cost\` (bench/analytics-cost.ts); do not edit by hand. -->

Commit \`${commit}\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${ROUNDS} rounds of ${REQUESTS} sends and as many verifies (a wrong code, then the right one) per channel, SQLite.

"Off" is the same commit with the analytics switched off (the risk screen, the choice of the contact id, the count of wrong codes, the batch fold of buckets and contacts, the per-country hour counter); it keeps the journal row of each state change that the webhooks need. "Control" is a second copy of "off": what it shows against "off" is the noise of the method. Each tree runs in a process of its own (\`bench/service-hotpath.ts\`), their waves of 50 requests taking turns, each wave followed by a step of its worker, so the fold's work counts with the requests that made it. A wave's CPU is its process's, every thread, from the end of that tree's previous wave; per request answered. The HTTP parsing that inject leaves out is the same in every tree, so the share shown is if anything larger than behind a socket. Each cell is CPU µs per request, then **the ratio to off** of a round's totals (the median of the rounds), then the range of that ratio in each fifth of the waves of every round.${PARTS ? ' "on-no-contacts" is this commit without the contacts (their part of the fold and the choice of their id), "on-no-wrong-codes" without counting wrong codes: measurements only, to show where the cost is.' : ''}

| channel | request | off | ${Object.keys(TREES)
    .filter((t) => t !== 'off')
    .join(' | ')} |
|---|---|--:|${Object.keys(TREES)
    .filter((t) => t !== 'off')
    .map(() => '--:|')
    .join('')}
${rows.join('\n')}

See [analytics](analytics.md#cost-on-the-hot-path) for what is on the path and why.
`,
);
console.log(`wrote ${PAGE}`);
