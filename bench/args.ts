import { resolve } from 'node:path';

/** The value of `--name=value` on the command line, or `fallback`. */
export const arg = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/** `--name=value`, else `BENCH_NAME` in the environment (dashes as underscores), else `fallback`. */
export const setting = (name: string, fallback: string): string =>
  arg(name, process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback);

/** A comma-separated list, blanks dropped. */
export const list = (value: string): string[] =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);

export interface Tree {
  name: string;
  /** Absolute path of the checkout. */
  root: string;
}

/** `name=path,name=path` as trees, in order; paths resolved against the working directory. */
export function parseTrees(value: string): Tree[] {
  const trees = list(value).map((t) => {
    const at = t.indexOf('=');
    const name = t.slice(0, at);
    const path = t.slice(at + 1);
    if (at < 1 || !path) throw new Error(`--trees: "${t}" is not name=path`);
    if (!/^[A-Za-z0-9_.-]+$/.test(name))
      throw new Error(`--trees: "${name}" may hold letters, digits, _ . - only`);
    return { name, root: resolve(path) };
  });
  const names = trees.map((t) => t.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new Error(`--trees: "${twice}" is named twice`);
  return trees;
}

/** `--trees=name=path,name=path`: the trees a side-by-side measures, in order; `fallback` without it. */
export function treesArg(fallback: Tree[]): Tree[] {
  const value = arg('trees', '');
  return value === '' ? fallback : parseTrees(value);
}
