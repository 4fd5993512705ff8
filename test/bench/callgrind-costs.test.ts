import { describe, expect, it } from 'vitest';
import { differ, jsNames, parseAnnotated, partOf, perRequest } from '../../bench/callgrind-costs.js';

// A perf map as V8 writes it with --perf-basic-prof (hex start, hex size, name), and a piece of
// callgrind_annotate's table for a process of that map: native functions by symbol, JIT code as
// bare addresses.
const PERF_MAP = [
  '18c4000 300 Builtin:DeoptimizationEntry_Eager',
  'd2fb600 180 JS:*consume file:///work/main/dist/limits/memory-store.js:60:18',
  'd300000 40 JS:~send file:///tmp/base/dist/domain/verification/send.js:31:15',
  // The same address compiled again later: the later entry is the code there now.
  'd300000 80 JS:*send file:///tmp/base/dist/domain/verification/send.js:31:15',
].join('\n');

const ANNOTATED = `--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
10,000,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                    file:function
--------------------------------------------------------------------------------
3,000,000 (30.00%)  ???:sqlite3VdbeExec [/work/main/node_modules/better-sqlite3/build/Release/better_sqlite3.node]
2,000,000 (20.00%)  ???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]
1,500,000 (15.00%)  ???:heap::base::SlotCallbackResult v8::internal::Scavenger::ScavengeObject<v8::internal::FullHeapObjectSlot>(v8::internal::FullHeapObjectSlot, v8::internal::HeapObject) [/usr/bin/node]
1,000,000 (10.00%)  ???:0x000000000d2fb640 [???]
  600,000 ( 6.00%)  ???:0x000000000d300050 [???]
  400,000 ( 4.00%)  ???:0x000000000d2fb700 [???]
  300,000 ( 3.00%)  ???:0x000000000d900000 [???]
  200,000 ( 2.00%)  ???:Builtins_LoadIC_Megamorphic [/usr/bin/node]
  100,000 ( 1.00%)  ???:__popcountdi2 [/usr/lib/x86_64-linux-gnu/libgcc_s.so.1]
`;

describe('callgrind costs', () => {
  const costs = parseAnnotated(ANNOTATED, jsNames(PERF_MAP));

  it('names JIT code by the perf map, without line and column or the tree it ran from', () => {
    expect(costs.get('JS JS:*consume file:dist/limits/memory-store.js')).toBe(1_400_000);
    // 0xd300050 lies past the first entry at 0xd300000 (size 0x40), inside the later one.
    expect(costs.get('JS JS:*send file:dist/domain/verification/send.js')).toBe(600_000);
    expect(costs.get('JS (unnamed)')).toBe(300_000);
    expect(
      costs.get('???:sqlite3VdbeExec [node_modules/better-sqlite3/build/Release/better_sqlite3.node]'),
    ).toBe(3_000_000);
    expect([...costs.keys()].some((k) => k.includes('PROGRAM TOTALS'))).toBe(false);
    // Every listed line counted once (the table leaves out what is under its threshold).
    expect([...costs.values()].reduce((a, b) => a + b, 0)).toBe(9_100_000);
  });

  it('splits work from the compiler and the collector', () => {
    expect(partOf('???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]')).toBe('compiler');
    expect(partOf('???:v8::internal::OptimizingCompileDispatcher::CompileTask::RunInternal()')).toBe(
      'compiler',
    );
    expect(partOf('???:__popcountdi2 [/usr/lib/x86_64-linux-gnu/libgcc_s.so.1]')).toBe('gc');
    expect(partOf('???:v8::internal::Heap::OnMoveEvent(v8::internal::HeapObject) [/usr/bin/node]')).toBe(
      'gc',
    );
    expect(partOf('???:Builtins_LoadIC_Megamorphic [/usr/bin/node]')).toBe('work');
    expect(partOf('JS JS:*send file:dist/domain/verification/send.js')).toBe('work');
    expect(perRequest(costs, 100)).toEqual({ total: 91_000, work: 55_000, compiler: 20_000, gc: 16_000 });
  });

  it('lists the functions that differ most per request, either way', () => {
    const mine = new Map(costs);
    mine.set('JS JS:*send file:dist/domain/verification/send.js', 2_600_000);
    mine.delete('JS (unnamed)');
    // Twice the requests: each count per request halves, the send's grows.
    const top = differ(costs, 100, mine, 200, 2);
    expect(top).toEqual([
      {
        fn: '???:sqlite3VdbeExec [node_modules/better-sqlite3/build/Release/better_sqlite3.node]',
        was: 30_000,
        is: 15_000,
        delta: -15_000,
      },
      {
        fn: '???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]',
        was: 20_000,
        is: 10_000,
        delta: -10_000,
      },
    ]);
    expect(differ(costs, 100, mine, 100, 1)).toEqual([
      { fn: 'JS JS:*send file:dist/domain/verification/send.js', was: 6_000, is: 26_000, delta: 20_000 },
    ]);
  });
});
