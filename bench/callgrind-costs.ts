/**
 * Reading callgrind's counts (bench/instructions.ts): instructions per function of a dump, the
 * functions V8 compiled named through its perf map, and the split into the process's own work, the
 * optimising compiler and the collector.
 */

/** Instructions by function name, from one callgrind dump (self cost). */
export type Costs = Map<string, number>;

/** V8's optimising compilers and their dispatcher. */
const COMPILER = /v8::internal::(compiler|maglev|wasm)::|OptimizingCompileDispatcher/;
/** The collector: its visitors, spaces, remembered sets, and the bitmaps it counts with. */
const GC = new RegExp(
  [
    'v8::internal::(Scavenge|MarkCompact|Marking|ConcurrentMarking|Sweeper|Evacuat|MinorGC|IncrementalMarking)',
    'v8::internal::(Heap|PagedSpace|NewSpace|SemiSpace|LargeObjectSpace|MemoryAllocator|FreeList|PretenuringHandler|ArrayBufferSweeper|GlobalHandles)::',
    'heap::base::',
    'MarkingVisitor|MemoryChunk|LiveObject|HeapObject::SizeFromMap|BodyDescriptor',
    'RememberedSet|SlotSet|TypedSlot|IterateObjectCache|ActiveSystemPages|__popcountdi2',
  ].join('|'),
);

/** Which of the three parts a function's instructions belong to. */
export function partOf(fn: string): 'work' | 'compiler' | 'gc' {
  if (COMPILER.test(fn)) return 'compiler';
  if (GC.test(fn)) return 'gc';
  return 'work';
}

/**
 * Self instructions per function from `callgrind_annotate`'s text, a JIT address named by `named`;
 * a tree's own paths left out, so that the same function has one name in every tree.
 */
export function parseAnnotated(text: string, named: (address: number) => string): Costs {
  const costs: Costs = new Map();
  for (const line of text.split('\n')) {
    const m = /^\s*([\d,]+) \([ \d.]+%\)\s+(.*)$/.exec(line);
    if (!m || line.includes('PROGRAM TOTALS')) continue;
    const raw = m[2] as string;
    const address = /^\?\?\?:0x([0-9a-f]+) \[\?\?\?\]$/.exec(raw)?.[1];
    const fn = (address ? named(Number.parseInt(address, 16)) : raw).replace(
      /\/\S*?\/(dist|node_modules)\//g,
      '$1/',
    );
    costs.set(fn, (costs.get(fn) ?? 0) + Number((m[1] as string).replaceAll(',', '')));
  }
  return costs;
}

/**
 * Names a code address by V8's perf map (`--perf-basic-prof`: start, size and name per line, in
 * hex); where two entries start at one address the later one is the code there now.
 */
export function jsNames(perfMap: string): (address: number) => string {
  const rows = perfMap
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, size, ...name] = line.split(' ');
      return {
        start: Number.parseInt(start as string, 16),
        size: Number.parseInt(size as string, 16),
        name: name.join(' '),
      };
    })
    .sort((a, b) => a.start - b.start);
  return (address) => {
    // The last entry starting at or below the address (the sort keeps equal starts in map order).
    let lo = 0;
    let hi = rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((rows[mid] as (typeof rows)[number]).start <= address) lo = mid + 1;
      else hi = mid - 1;
    }
    const row = rows[hi];
    // Without its line and column: a function is the same function when code above it moved.
    return row && address < row.start + row.size ? `JS ${row.name.replace(/:\d+:\d+$/, '')}` : 'JS (unnamed)';
  };
}

/** Instructions per request, in all and in each part. */
export function perRequest(costs: Costs, requests: number) {
  const parts = { work: 0, compiler: 0, gc: 0 };
  for (const [name, n] of costs) parts[partOf(name)] += n;
  return {
    total: Math.round((parts.work + parts.compiler + parts.gc) / requests),
    work: Math.round(parts.work / requests),
    compiler: Math.round(parts.compiler / requests),
    gc: Math.round(parts.gc / requests),
  };
}

/** The `top` functions whose instructions per request differ most between two trees. */
export function differ(base: Costs, baseRequests: number, mine: Costs, myRequests: number, top: number) {
  const names = new Set([...base.keys(), ...mine.keys()]);
  return [...names]
    .map((fn) => {
      const was = (base.get(fn) ?? 0) / baseRequests;
      const is = (mine.get(fn) ?? 0) / myRequests;
      return { fn: fn.slice(0, 160), was: Math.round(was), is: Math.round(is), delta: Math.round(is - was) };
    })
    .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
    .slice(0, top);
}
