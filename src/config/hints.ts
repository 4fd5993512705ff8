/**
 * Start-up hints for the mistakes a newcomer makes with settings: a misspelt variable name, a
 * database address without its scheme, a port already taken.
 */

/** Edit distance of two names (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * Variables of the environment that are not settings but are one edit away from one, or two for
 * long names (`DATABSE_URL`), each with the setting it probably meant. Names farther from every
 * setting are someone else's (PATH, HOME, …) and are left alone.
 */
export function misspeltSettings(env: NodeJS.ProcessEnv, known: readonly string[]): string[] {
  const names = new Set(known);
  const hints: string[] = [];
  for (const name of Object.keys(env)) {
    if (names.has(name) || !/^[A-Z][A-Z0-9_]{3,}$/.test(name)) continue;
    const allowed = name.length >= 8 ? 2 : 1;
    let best: { name: string; distance: number } | null = null;
    for (const candidate of known) {
      const d = distance(name, candidate);
      if (d <= allowed && (!best || d < best.distance)) best = { name: candidate, distance: d };
    }
    if (best) hints.push(`${name} is not a setting; did you mean ${best.name}?`);
  }
  return hints;
}

/** The problem with a DATABASE_URL, or null: it must name its kind of database. */
export function databaseUrlProblem(url: string): string | null {
  if (/^sqlite:/.test(url) || /^postgres(ql)?:\/\//.test(url)) return null;
  return (
    'DATABASE_URL must start with sqlite: (a file, e.g. sqlite:./data/verify.db) or postgres:// ' +
    `(e.g. postgres://user@127.0.0.1:5432/verify), got ${JSON.stringify(url.length > 60 ? `${url.slice(0, 60)}…` : url)}` +
    (/^[./~]|\.db$/.test(url) ? `; for this file write sqlite:${url}` : '')
  );
}

/** A sentence for a failed listen, naming the setting that changes it. */
export function listenProblem(err: NodeJS.ErrnoException, host: string, port: number): string | null {
  if (err.code === 'EADDRINUSE')
    return `Port ${port} on ${host} is already in use: stop the other process, or set PORT to a free port (e.g. PORT=8081).`;
  if (err.code === 'EACCES')
    return `Port ${port} on ${host} needs privileges: set PORT to 1024 or above, or HOST to another address.`;
  if (err.code === 'EADDRNOTAVAIL')
    return `${host} is not an address of this machine: set HOST (127.0.0.1, or 0.0.0.0 for every interface).`;
  return null;
}
