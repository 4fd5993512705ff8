/**
 * What a PostgreSQL server's WAL holds, per kind of record and relation, for bench/service-hotpath.ts
 * `--wal-by-relation=<the server's pg_wal directory>`: which tables and indexes a request's bytes
 * of WAL go to (issue 43's "less for PostgreSQL to do per request"). It runs the server's own
 * pg_waldump over the positions the bench recorded, so it needs the server on this machine and read
 * access to its files (as root, or as the postgres user).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A stretch of WAL (pg_lsn text, as pg_current_wal_lsn() gives it) and who wrote it. */
export interface WalRange<Owner> {
  from: string;
  to: string;
  owner: Owner;
}

/** Per record kind and relation: bytes, records, full-page images. */
export interface WalShare {
  record: string;
  relation: string;
  bytes: number;
  records: number;
  fullPageImages: number;
}

/** pg_waldump of the server's major version, as Debian installs it, unless `explicit` names one. */
export function findWaldump(serverVersionNum: number, explicit = ''): string {
  const path = explicit || `/usr/lib/postgresql/${Math.floor(serverVersionNum / 10000)}/bin/pg_waldump`;
  if (!existsSync(path)) throw new Error(`no pg_waldump at ${path}: name it with --pg-waldump=<path>`);
  return path;
}

/** A record's line: its resource manager, total length, position and kind. */
const RECORD =
  /^rmgr: (\w+)\s+len \(rec\/tot\):\s+\d+\/\s*(\d+), tx:\s+\d+, lsn: ([0-9A-F]+\/[0-9A-F]+).*?desc: (\w+)/;

const lsnNumber = (lsn: string): bigint => {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
};

/**
 * Reads the WAL from the first range's start to the last one's end (the ranges in order, not
 * overlapping) with pg_waldump, and shares it out as `shareWal` does.
 */
export function walByRelation<Owner>(
  waldump: string,
  walDir: string,
  ranges: Array<WalRange<Owner>>,
  relations: (owner: Owner, fileNode: string) => string | undefined,
): Map<Owner, WalShare[]> {
  const first = ranges[0];
  const last = ranges.at(-1);
  if (!first || !last) return new Map();
  let text: string;
  try {
    text = execFileSync(waldump, ['-p', walDir, '-s', first.from, '-e', last.to], {
      maxBuffer: 1 << 30,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch (err) {
    // pg_waldump exits with an error where the WAL on disk ends before -e (the server had not
    // written out the last records yet): what it printed before stands.
    const printed = (err as { stdout?: Buffer }).stdout?.toString() ?? '';
    if (!printed) throw err;
    text = printed;
  }
  return shareWal(text, ranges, relations);
}

/**
 * Gives each record of pg_waldump's `text` to the owner of the range it lies in (records between
 * ranges belong to no one: another client's), summed per kind of record and relation, the largest
 * first. `relations` names a relation of an owner by its file node.
 */
export function shareWal<Owner>(
  text: string,
  ranges: Array<WalRange<Owner>>,
  relations: (owner: Owner, fileNode: string) => string | undefined,
): Map<Owner, WalShare[]> {
  const shares = new Map<Owner, Map<string, WalShare>>();
  const bounds = ranges.map((r) => ({ from: lsnNumber(r.from), to: lsnNumber(r.to), owner: r.owner }));
  let at = 0;
  for (const line of text.split('\n')) {
    const m = RECORD.exec(line);
    if (!m) continue;
    const lsn = lsnNumber(m[3] as string);
    while (at < bounds.length && lsn >= (bounds[at] as (typeof bounds)[number]).to) at++;
    const range = bounds[at];
    if (!range || lsn < range.from) continue;
    const rel = /rel \d+\/\d+\/(\d+)/.exec(line)?.[1];
    const record = `${m[1]} ${m[4]}`;
    const relation = rel ? (relations(range.owner, rel) ?? `file ${rel}`) : '';
    const mine = shares.get(range.owner) ?? new Map<string, WalShare>();
    shares.set(range.owner, mine);
    const key = `${record} ${relation}`;
    const share = mine.get(key) ?? { record, relation, bytes: 0, records: 0, fullPageImages: 0 };
    share.bytes += Number(m[2]);
    share.records += 1;
    if (/ FPW| FPI/.test(line)) share.fullPageImages += 1;
    mine.set(key, share);
  }
  return new Map([...shares].map(([owner, m]) => [owner, [...m.values()].sort((a, b) => b.bytes - a.bytes)]));
}
