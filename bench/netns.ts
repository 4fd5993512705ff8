import { execFileSync } from 'node:child_process';

/**
 * The network namespaces of `npm run bench:cluster`: one per service instance, joined to this
 * machine by a veth pair, so that each instance has an address of its own and reaches the
 * database, Redis and the webhook receiver only across a link (and the delay proxy), as an
 * instance on another machine would. Instance i (from 1) is `cvbench<i>`: its end of the pair
 * `cvbench<i>n` holds 10.231.<i>.2/30, the machine's end `cvbench<i>h` 10.231.<i>.1/30, and a
 * route sends all of 10.231.0.0/16 to the machine, where the proxies listen on 10.231.1.1.
 *
 * Every name starts with `cvbench`, so that a run can remove what a run that died left behind.
 * Needs root and iproute2.
 */
export const NETNS_PREFIX = 'cvbench';
const SUBNET = '10.231';
/** Where the machine's side of the bench listens (the proxies, the webhook receiver). */
export const HOST_ADDRESS = `${SUBNET}.1.1`;

export interface Namespace {
  name: string;
  /** The instance's address inside its namespace. */
  address: string;
}

const ip = (...args: string[]) =>
  execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

export function namespaceOf(i: number): Namespace {
  return { name: `${NETNS_PREFIX}${i}`, address: `${SUBNET}.${i}.2` };
}

/** Why namespaces cannot be made here, or null. */
export function netnsProblem(): string | null {
  if (process.getuid?.() !== 0) return 'bench:cluster makes network namespaces: run it as root';
  try {
    ip('netns', 'list');
  } catch (err) {
    return `ip netns does not work here: ${(err as Error).message}`;
  }
  // Routes of this machine that are not the bench's and overlap its addresses.
  const clash = ip('-4', 'route', 'show')
    .split('\n')
    .filter((l) => l.startsWith(`${SUBNET}.`) && !l.includes(NETNS_PREFIX));
  if (clash.length > 0) return `this machine already routes ${SUBNET}.0.0/16: ${clash[0]}`;
  return null;
}

/** Makes namespace `i` (from 1, up to 250) with its link to this machine, and returns it. */
export function createNamespace(i: number): Namespace {
  const ns = namespaceOf(i);
  const host = `${ns.name}h`;
  const inner = `${ns.name}n`;
  ip('netns', 'add', ns.name);
  ip('link', 'add', host, 'type', 'veth', 'peer', 'name', inner);
  ip('link', 'set', inner, 'netns', ns.name);
  ip('addr', 'add', `${SUBNET}.${i}.1/30`, 'dev', host);
  ip('link', 'set', host, 'up');
  const inside = (...args: string[]) => ip('netns', 'exec', ns.name, 'ip', ...args);
  inside('addr', 'add', `${ns.address}/30`, 'dev', inner);
  inside('link', 'set', inner, 'up');
  inside('link', 'set', 'lo', 'up');
  inside('route', 'add', `${SUBNET}.0.0/16`, 'via', `${SUBNET}.${i}.1`);
  return ns;
}

/** The bench's namespaces that exist now (its own, or a dead run's). */
export function benchNamespaces(): string[] {
  return ip('netns', 'list')
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter((name) => new RegExp(`^${NETNS_PREFIX}\\d+$`).test(name));
}

/**
 * Removes every namespace of the bench: the processes in it first (only a bench run starts any
 * there), then the namespace, which takes its veth pair with it; and a machine-side link left
 * over. Returns what it removed.
 */
export function removeNamespaces(): string[] {
  const removed: string[] = [];
  for (const name of benchNamespaces()) {
    const pids = ip('netns', 'pids', name)
      .split('\n')
      .map(Number)
      .filter((pid) => pid > 0);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    ip('netns', 'delete', name);
    removed.push(name);
  }
  const links = ip('-o', 'link', 'show')
    .split('\n')
    .map((l) => /^\d+:\s+([^:@]+)/.exec(l)?.[1] ?? '')
    .filter((name) => new RegExp(`^${NETNS_PREFIX}\\d+h$`).test(name));
  for (const link of links) {
    try {
      ip('link', 'delete', link);
      removed.push(link);
    } catch {
      // Its namespace's removal took it meanwhile.
    }
  }
  return removed;
}

/** The command and arguments that run what follows them inside namespace `ns`. */
export const inNamespace = (ns: Namespace): [string, string[]] => ['ip', ['netns', 'exec', ns.name]];
