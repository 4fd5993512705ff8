import { readFileSync } from 'node:fs';

/**
 * Summarises a V8 .cpuprofile (from `npm run bench -- --cpu-prof=1`): self time per function and
 * per package, the quickest way to see where a request's time goes.
 * Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
 */
interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2] as string, 'utf8')) as Profile;
const top = Number(process.argv[3] ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes('/dist/')) return `app:${url.split('/dist/')[1]}`;
  return url.startsWith('node:') ? url : url || '(native/gc/idle)';
};
const functions = new Map<string, number>();
const packages = new Map<string, number>();
for (const [id, us] of self) {
  const { callFrame: f } = byId.get(id) as Node;
  const name = `${f.functionName || '(anonymous)'} ${where(f.url)}:${f.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + us);
  const pkg = f.url ? where(f.url).replace(/^app:.*/, 'app') : f.functionName || '(native)';
  packages.set(pkg, (packages.get(pkg) ?? 0) + us);
}
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(`${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}\n`);
  }
};
process.stdout.write(`total ${(total / 1e6).toFixed(1)} s sampled\n`);
print('self time by package', packages);
print('self time by function', functions);
