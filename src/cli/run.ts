import { parseArgs } from 'node:util';
import { loadConfig } from '../config/schema.js';
import { AccountAdmin } from '../domain/accounts.js';
import { systemClock } from '../domain/clock.js';
import { type ApiKeyRecord, CHANNELS, type Channel, modeOf } from '../domain/types.js';
import type { Store } from '../store/factory.js';
import { openStore } from '../store/factory.js';
import { backup, closeAllSessions, OPERATION_USAGE, restore } from './operations.js';
import { VERIFICATION_COMMANDS, VERIFICATION_USAGE, verificationCommand } from './verifications.js';
import { WEBHOOK_COMMANDS, WEBHOOK_USAGE, webhookCommand } from './webhooks.js';

const USAGE = `contact-verify: manage accounts, API keys and the database from a shell.

Usage:
  contact-verify accounts create --name <name>
  contact-verify accounts list
  contact-verify keys create --name <name> --channels ${CHANNELS.join(',')} [--account <id>] [--test]
  contact-verify keys list [--account <id>]
  contact-verify keys update <key-id> [--name <name>] [--channels EMAIL,SMS]
  contact-verify keys revoke <key-id>
  contact-verify keys rotate <key-id>
${VERIFICATION_USAGE}
${WEBHOOK_USAGE}
${OPERATION_USAGE}
  contact-verify migrate

Settings come from the same environment variables as the service (DATABASE_URL, CONFIG_FILE …).
Add --json for machine-readable output.`;

const COMMANDS = [
  'migrate',
  'accounts create',
  'accounts list',
  'keys create',
  'keys list',
  'keys update',
  'keys revoke',
  'keys rotate',
  'sessions close-all',
  ...VERIFICATION_COMMANDS,
  ...WEBHOOK_COMMANDS,
];

/** Commands of one word and a file, which open the database file themselves (not the store). */
const FILE_COMMANDS = ['backup', 'restore'];

/** A key as --json prints it: the mode as the API's boolean `test`. */
const keyOut = ({ mode, ...key }: ApiKeyRecord) => ({ ...key, test: mode === 'test' });

/** A command's outcome: what to print, and the exit code. */
type Outcome = { out: unknown; text: string; code?: number };

/** The CLI's entry point: its own composition root, reading the same configuration as the service. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ output: string; code: number }> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      channels: { type: 'string' },
      account: { type: 'string' },
      test: { type: 'boolean', default: false },
      url: { type: 'string' },
      events: { type: 'string' },
      delivery: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [group, action, id] = positionals;
  if (values.help || !group) return { output: USAGE, code: group || values.help ? 0 : 2 };

  const command = `${group} ${action ?? ''}`.trim();
  const fileCommand = FILE_COMMANDS.includes(group);
  if (!fileCommand && !COMMANDS.includes(command))
    return { output: `unknown command "${command}"\n\n${USAGE}`, code: 2 };

  const config = loadConfig(env);
  const print = (result: Outcome) => ({
    output: values.json ? JSON.stringify(result.out, isoTimes, 2) : result.text,
    code: result.code ?? 0,
  });
  if (fileCommand) return print(await (group === 'backup' ? backup : restore)(config, action));
  const store = await openStore(config.databaseUrl, { poolSize: config.databasePoolSize });
  try {
    const admin = new AccountAdmin(store.accounts, systemClock);
    await admin.ensureDefaultAccount();
    const result =
      group === 'webhooks'
        ? await webhookCommand(config, store, action ?? '', id, values)
        : group === 'verifications'
          ? await verificationCommand(store, action ?? '', id, values)
          : command === 'sessions close-all'
            ? await closeAllSessions(store)
            : await dispatch(store, admin, group, action, id, values);
    return print(result);
  } finally {
    await store.close();
  }
}

async function dispatch(
  store: Store,
  admin: AccountAdmin,
  group: string,
  action: string | undefined,
  id: string | undefined,
  values: { name?: string; channels?: string; account?: string; test?: boolean },
): Promise<Outcome> {
  const fail = (text: string): Outcome => ({ out: { error: text }, text, code: 2 });
  switch (`${group} ${action ?? ''}`.trim()) {
    case 'migrate': {
      const applied = await store.migrate();
      return { out: { dialect: store.dialect, applied }, text: `${store.dialect}: schema up to date` };
    }
    case 'accounts create': {
      if (!values.name) return fail('accounts create needs --name');
      const account = await admin.createAccount(values.name);
      return { out: account, text: `created account ${account.id} (${account.name})` };
    }
    case 'accounts list': {
      const accounts = await admin.listAccounts();
      return { out: accounts, text: accounts.map((a) => `${a.id}\t${a.name}`).join('\n') };
    }
    case 'keys create': {
      if (!values.name) return fail('keys create needs --name');
      const channels = channelList(values.channels);
      if (!channels) return fail(CHANNELS_HELP);
      const created = await admin.createKey({
        name: values.name,
        channels,
        accountId: values.account,
        mode: modeOf(values.test),
      });
      if (!created) return fail(`no account ${values.account}`);
      return {
        out: { ...keyOut(created.record), key: created.key },
        text:
          `created key ${created.record.id} for ${created.record.accountId} (${created.record.channels.join(', ')})\n` +
          `secret, shown once: ${created.key}`,
      };
    }
    case 'keys list': {
      const keys = await admin.listKeys(values.account);
      return {
        out: keys.map(keyOut),
        text: keys
          .map(
            (k) =>
              `${k.id}\t${k.prefix}…\t${k.accountId}\t${k.channels.join(',')}\t${k.mode}\t${k.revokedAt ? 'revoked' : 'active'}\t${lastUsed(k.lastUsedAt)}\t${k.name}`,
          )
          .join('\n'),
      };
    }
    case 'keys update': {
      if (!id) return fail('keys update needs a key id');
      if (values.name === undefined && values.channels === undefined) {
        return fail('keys update needs --name or --channels');
      }
      if (values.name !== undefined && (values.name.trim() === '' || values.name.length > 100)) {
        return fail('--name takes 1 to 100 characters');
      }
      const channels = values.channels === undefined ? undefined : channelList(values.channels);
      if (channels === null) return fail(CHANNELS_HELP);
      const key = await admin.updateKey(id, { name: values.name, channels });
      if (!key) return fail(`no live key ${id}`);
      return { out: keyOut(key), text: `updated ${key.id}: ${key.name} (${key.channels.join(', ')})` };
    }
    case 'keys revoke': {
      if (!id) return fail('keys revoke needs a key id');
      return (await admin.revokeKey(id))
        ? { out: { id, revoked: true }, text: `revoked ${id}` }
        : fail(`no live key ${id}`);
    }
    case 'keys rotate': {
      if (!id) return fail('keys rotate needs a key id');
      const created = await admin.rotateKey(id);
      if (!created) return fail(`no live key ${id}`);
      return {
        out: { ...keyOut(created.record), key: created.key, replaces: id },
        text: `revoked ${id}; new key ${created.record.id}\nsecret, shown once: ${created.key}`,
      };
    }
    default:
      return fail(`unknown command "${group} ${action ?? ''}"\n\n${USAGE}`);
  }
}

const CHANNELS_HELP = `--channels takes a comma-separated list of ${CHANNELS.join(', ')}`;

/** `EMAIL,sms` as channels; null when empty or naming an unknown channel. */
function channelList(raw: string | undefined): Channel[] | null {
  const channels = (raw ?? '')
    .split(',')
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  const unknown = channels.filter((c) => !(CHANNELS as readonly string[]).includes(c));
  return channels.length === 0 || unknown.length > 0 ? null : (channels as Channel[]);
}

const lastUsed = (at: number | null) => (at === null ? 'never used' : `used ${new Date(at).toISOString()}`);

/** Times as the API gives them (ISO 8601), not the epoch milliseconds the store keeps. */
function isoTimes(key: string, value: unknown): unknown {
  return /At$/.test(key) && typeof value === 'number' ? new Date(value).toISOString() : value;
}
