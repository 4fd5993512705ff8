#!/usr/bin/env node
import cluster from 'node:cluster';
import { runPrimary, workersProblem } from './cluster.js';
import { compose } from './compose.js';
import { listenProblem, misspeltSettings } from './config/hints.js';
import { ConfigError, loadConfig, SETTING_NAMES } from './config/schema.js';
import { CHANNELS } from './domain/channels/registry.js';
import { limitHeapGrowth } from './heap-growth.js';
import { createLogger } from './logging.js';

/** The composition root: the only module that reads process.env. */
async function main(): Promise<void> {
  limitHeapGrowth(process.execArgv, process.env.NODE_OPTIONS);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const problem = workersProblem(config);
  if (problem) {
    process.stderr.write(`Invalid configuration:\n  ${problem}\n`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel);
  if (cluster.isPrimary) for (const hint of misspeltSettings(process.env, SETTING_NAMES)) logger.warn(hint);
  // With WORKERS > 1 this process only supervises; each forked worker runs main() as a service.
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const service = await compose(config, { logger });
  if (service.generatedAdminToken) {
    process.stderr.write(
      `\nGenerated ADMIN_TOKEN (shown once; only its hash is stored):\n\n  ${service.generatedAdminToken}\n\n` +
        'Create an API key with:\n' +
        `  curl -s -X POST http://${config.host}:${config.port}/v1/admin/api-keys \\\n` +
        `    -H "Authorization: Bearer ${service.generatedAdminToken}" -H "Content-Type: application/json" \\\n` +
        `    -d '${JSON.stringify({ name: 'my-app', channels: CHANNELS })}'\n\n`,
    );
  }
  if (config.redisUrl && !(await service.counters.check())) {
    logger.warn(
      'REDIS_URL is unreachable: sends and verifies answer 503 until Redis answers (the service keeps trying)',
    );
  }
  let address: string;
  try {
    address = await service.app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const hint = listenProblem(err as NodeJS.ErrnoException, config.host, config.port);
    if (!hint) throw err;
    process.stderr.write(`${hint}\n`);
    await service.close();
    process.exit(2);
  }
  logger.info({ address, database: service.store.dialect, rateLimits: service.counters.kind }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await service.close();
      logger.info('stopped');
      logger.flush();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
