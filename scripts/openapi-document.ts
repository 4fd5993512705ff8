import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { compose } from '../src/compose.js';
import { loadConfig } from '../src/config/schema.js';

/**
 * The service's OpenAPI document, exactly as `/openapi.json` serves it, built from the route
 * schemas of a service composed in memory (nothing listens, nothing is written to disk).
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const service = await compose(
    loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      CODE_SECRET: randomBytes(24).toString('base64url'),
    }),
    { logger: pino({ level: 'silent' }) },
  );
  try {
    await service.app.ready();
    return service.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await service.close();
  }
}

/** The document as committed in clients/openapi.json: stable key order, two-space indent. */
export const documentText = (doc: unknown): string => `${JSON.stringify(doc, null, 2)}\n`;
