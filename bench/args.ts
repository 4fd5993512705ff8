import { resolve } from 'node:path';

/** The value of `--name=value` on the command line, or `fallback`. */
export const arg = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/** `--trees=name=path,name=path`: the trees a side-by-side measures, in order; `fallback` without it. */
export function treesArg(
  fallback: Array<{ name: string; root: string }>,
): Array<{ name: string; root: string }> {
  const value = arg('trees', '');
  if (value === '') return fallback;
  return value.split(',').map((t) => {
    const [name, path] = t.split('=');
    if (!name || !path) throw new Error(`--trees: "${t}" is not name=path`);
    return { name, root: resolve(path) };
  });
}
