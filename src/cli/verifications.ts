import { DEFAULT_ACCOUNT_ID } from '../domain/accounts.js';
import { systemClock } from '../domain/clock.js';
import { DomainError } from '../domain/errors.js';
import { CHANNELS, modeOf } from '../domain/types.js';
import { cancelRequest } from '../domain/verification/cancel.js';
import { readResource, type VerificationResource } from '../domain/verification/resource.js';
import type { Store } from '../store/factory.js';

export const VERIFICATION_USAGE = `  contact-verify verifications get <request-id> [--account <id>] [--test]
  contact-verify verifications cancel <request-id> [--account <id>] [--test]`;

export const VERIFICATION_COMMANDS = ['verifications get', 'verifications cancel'];

type Outcome = { out: unknown; text: string; code?: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One line per field, as an operator reads it. */
const resourceText = (r: VerificationResource) =>
  [
    `${r.requestId}\t${r.channel}\t${r.status}\t${r.to}`,
    `created ${r.createdAt}, expires ${r.expiresAt}, ${r.attemptsRemaining} attempt(s) left`,
    ...(r.verifiedAt ? [`verified ${r.verifiedAt} by ${r.method}`] : []),
    ...(r.siblingRequestId ? [`dual pair with ${r.siblingRequestId}`] : []),
    `delivery ${r.delivery.status}${r.delivery.provider ? ` via ${r.delivery.provider}` : ''} at ${r.delivery.updatedAt}`,
  ].join('\n');

/**
 * The `verifications …` commands: the resource and its cancel (GET /v1/contact/verifications/{id},
 * POST …/cancel) for an operator, on the store. An operator sees every channel of the account and
 * mode it names (the default account, live, unless told otherwise).
 */
export async function verificationCommand(
  store: Store,
  action: string,
  id: string | undefined,
  values: { account?: string; test?: boolean },
): Promise<Outcome> {
  const fail = (text: string, code = 2): Outcome => ({ out: { error: text }, text, code });
  if (!id || !UUID.test(id))
    return fail(`verifications ${action} needs a request id (a UUID from send-code)`);
  const scope = {
    accountId: values.account ?? DEFAULT_ACCOUNT_ID,
    mode: modeOf(values.test),
    channels: CHANNELS,
  };
  const requestId = id.toLowerCase();
  try {
    const resource =
      action === 'cancel'
        ? await cancelRequest(store.verifications, scope, requestId, systemClock.now())
        : await readResource(store.verifications, scope, requestId, systemClock.now());
    return { out: resource, text: resourceText(resource) };
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND')
      return fail(
        `no ${scope.mode} verification request ${requestId} in account ${scope.accountId}` +
          (values.test ? '' : ' (a test key’s request needs --test)'),
        1,
      );
    throw err;
  }
}
