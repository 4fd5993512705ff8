#!/usr/bin/env node
import { runCli } from './cli/run.js';
import { ConfigError } from './config/schema.js';
import { DeliverySettingsError } from './delivery/settings.js';

runCli(process.argv.slice(2), process.env)
  .then(({ output, code }) => {
    if (output) (code === 0 ? process.stdout : process.stderr).write(`${output}\n`);
    process.exitCode = code;
  })
  .catch((err) => {
    process.stderr.write(
      `${err instanceof ConfigError || err instanceof DeliverySettingsError ? err.message : `error: ${(err as Error).message}`}\n`,
    );
    process.exitCode = 1;
  });
