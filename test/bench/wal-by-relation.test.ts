import { describe, expect, it } from 'vitest';
import { shareWal } from '../../bench/wal-by-relation.js';

// Lines as PostgreSQL 15's pg_waldump prints them.
const DUMP = `rmgr: Heap        len (rec/tot):     59/   523, tx:       1001, lsn: 0/0A000028, prev 0/0A000000, desc: INSERT off 5 flags 0x00, blkref #0: rel 1663/16384/16390 blk 3
rmgr: Btree       len (rec/tot):     64/    64, tx:       1001, lsn: 0/0A000238, prev 0/0A000028, desc: INSERT_LEAF off 12, blkref #0: rel 1663/16384/16395 blk 1
rmgr: Transaction len (rec/tot):     34/    34, tx:       1001, lsn: 0/0A000278, prev 0/0A000238, desc: COMMIT 2026-12-07 01:00:00.000000 UTC
rmgr: Heap        len (rec/tot):     59/  8251, tx:       1002, lsn: 0/0A0002A0, prev 0/0A000278, desc: INSERT off 1 flags 0x00, blkref #0: rel 1663/16384/16390 blk 4 FPW
rmgr: Heap        len (rec/tot):     59/   500, tx:       1003, lsn: 0/0A002300, prev 0/0A0002A0, desc: INSERT off 2 flags 0x00, blkref #0: rel 1663/16999/17000 blk 4
rmgr: Heap        len (rec/tot):     54/    54, tx:       1004, lsn: 1/00000010, prev 0/0A002300, desc: DELETE off 3 flags 0x00 KEYS_UPDATED , blkref #0: rel 1663/16384/16390 blk 4
pg_waldump: error: error in WAL record at 1/00000048: invalid record length`;

describe('shareWal', () => {
  const names: Record<string, string> = { '16390': 'verifications', '16395': 'verifications_pkey' };
  const relations = (_owner: string, node: string) => names[node];

  it('gives each record to the range it lies in, per kind and relation, the largest first', () => {
    const shares = shareWal(
      DUMP,
      [
        { from: '0/0A000000', to: '0/0A002000', owner: 'a' },
        // A range past 4 GB of WAL: positions compare as 64-bit numbers.
        { from: '0/FFFFFFF0', to: '1/00000100', owner: 'b' },
      ],
      relations,
    );
    expect(shares.get('a')).toEqual([
      { record: 'Heap INSERT', relation: 'verifications', bytes: 523 + 8251, records: 2, fullPageImages: 1 },
      {
        record: 'Btree INSERT_LEAF',
        relation: 'verifications_pkey',
        bytes: 64,
        records: 1,
        fullPageImages: 0,
      },
      { record: 'Transaction COMMIT', relation: '', bytes: 34, records: 1, fullPageImages: 0 },
    ]);
    // The record between the ranges (another client's, at 0/0A002300) is no one's.
    expect(shares.get('b')).toEqual([
      { record: 'Heap DELETE', relation: 'verifications', bytes: 54, records: 1, fullPageImages: 0 },
    ]);
  });

  it('names a relation it does not know by its file node, and gives nothing for no ranges', () => {
    const shares = shareWal(DUMP, [{ from: '0/0A002300', to: '0/0A002301', owner: 'c' }], relations);
    expect(shares.get('c')).toEqual([
      { record: 'Heap INSERT', relation: 'file 17000', bytes: 500, records: 1, fullPageImages: 0 },
    ]);
    expect(shareWal(DUMP, [], relations).size).toBe(0);
  });
});
