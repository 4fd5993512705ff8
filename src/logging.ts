import pino, { type Logger } from 'pino';

/**
 * JSON logs through pino. Codes never reach a log call; as a second line of defence, fields that
 * could carry secrets are redacted wherever they appear.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'contact-verify' },
      redact: {
        // Exact paths only: one wildcard path (`*.code`) would triple the cost of every line, and
        // the service never puts a code in a log object to begin with (its tests check the output).
        paths: [
          'code',
          'otpCode',
          'body.code',
          'body.otpCode',
          'key',
          'token',
          'req.headers.authorization',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    // Asynchronous writes keep logging off the request path; flushed on shutdown.
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
