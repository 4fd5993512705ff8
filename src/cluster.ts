import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Config } from './config/schema.js';
import { serveClusterMetrics } from './metrics/cluster.js';

/**
 * Why this configuration cannot run WORKERS > 1, or null. Workers are separate processes: the
 * in-process rate limits would be counted once per worker (a 30 s cooldown would allow one send
 * per worker), and an in-memory database would be one per worker. So several workers need Redis,
 * and a database file or server they can share (SQLite in WAL mode with busy_timeout is fine).
 */
export function workersProblem(config: Config): string | null {
  if (config.workers <= 1) return null;
  if (!config.redisUrl) {
    return `WORKERS=${config.workers} needs REDIS_URL: rate limits kept in each process would not hold across workers. Set REDIS_URL or WORKERS=1.`;
  }
  if (/^sqlite::memory:?$/.test(config.databaseUrl)) {
    return `WORKERS=${config.workers} needs a shared database: DATABASE_URL=sqlite::memory: would give each worker its own.`;
  }
  return null;
}

/** Restart delays for a worker that keeps dying young, so a broken start does not spin. */
const QUICK_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
const SHUTDOWN_GRACE_MS = 15_000;

/**
 * The node:cluster primary: forks the workers (which share the listening port), replaces a worker
 * that dies, and passes SIGTERM/SIGINT on so every worker finishes its in-flight requests.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  serveClusterMetrics();
  const startedAt = new Map<Worker, number>();
  let restartDelay = 0;
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.once('listening', () => logger.info({ pid: worker.process.pid }, 'worker started'));
    return worker;
  };

  // The first worker alone applies migrations and creates the generated secrets; the rest follow.
  await new Promise<void>((resolve, reject) => {
    const first = fork();
    const failed = (code: number | null) => reject(new Error(`the first worker exited (code ${code})`));
    first.once('exit', failed);
    first.once('listening', () => {
      first.off('exit', failed);
      resolve();
    });
  });
  for (let i = 1; i < config.workers; i++) fork();

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) {
        logger.info('all workers stopped');
        logger.flush();
        process.exit(0);
      }
      return;
    }
    restartDelay =
      lived < QUICK_DEATH_MS ? Math.min(Math.max(restartDelay * 2, 500), MAX_RESTART_DELAY_MS) : 0;
    logger.error(
      { pid: worker.process.pid, code, signal, restartInMs: restartDelay },
      'worker died; replacing it',
    );
    setTimeout(() => {
      if (!stopping) fork();
    }, restartDelay);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: startedAt.size }, 'shutting down workers');
    for (const worker of startedAt.keys()) worker.process.kill('SIGTERM');
    if (startedAt.size === 0) process.exit(0);
    setTimeout(() => {
      logger.error('workers did not stop in time; killing them');
      for (const worker of startedAt.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info({ workers: config.workers }, 'primary started');
  if (config.workers > availableParallelism()) {
    // More workers than cores only adds context switches; allowed, since containers may under-report.
    logger.warn({ workers: config.workers, cores: availableParallelism() }, 'WORKERS exceeds the cores');
  }
}
