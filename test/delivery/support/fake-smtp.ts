import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelopeTo: string[];
  mail: ParsedMail;
  /** performance.now() when MAIL FROM arrived and when the message was accepted. */
  startedAt: number;
  endedAt: number;
}

export interface FakeSmtp {
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (smtp-server) on loopback that parses each message with mailparser.
 * Recipients in `reject` get 550 at RCPT TO; `delayMs` holds the final answer to DATA.
 */
export async function startFakeSmtp(
  options: { reject?: string[]; delayMs?: number } = {},
): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const started = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(_address, session, callback) {
      started.set(session.id, performance.now());
      callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.reject?.includes(address.address)) {
        const err = new Error('5.1.1 No such user here') as Error & { responseCode: number };
        err.responseCode = 550;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const finish = () => {
            mails.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              mail,
              startedAt: started.get(session.id) ?? performance.now(),
              endedAt: performance.now(),
            });
            callback();
          };
          if (options.delayMs) setTimeout(finish, options.delayMs);
          else finish();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
