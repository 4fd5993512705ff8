import { generateApiKeySecret, hashApiKey, keyPrefix, newId } from './api-keys.js';
import { mergeBranding, withLogo } from './branding.js';
import type { Clock } from './clock.js';
import type { LogoImage } from './logo.js';
import type { KeysAndAccounts, StoredLogo } from './ports/keys-and-accounts.js';
import type { Account, AccountSettings, ApiKeyRecord, Branding, Channel, Mode } from './types.js';

/** The id of the account a fresh install starts with. */
export const DEFAULT_ACCOUNT_ID = 'acc_default';

export interface CreatedKey {
  record: ApiKeyRecord;
  /** The secret; shown once and never stored. */
  key: string;
}

/** Account and API-key management, shared by the admin API and the CLI. */
export class AccountAdmin {
  constructor(
    private readonly accounts: KeysAndAccounts,
    private readonly clock: Clock,
  ) {}

  /** Creates the default account unless it exists; safe on many instances at once. */
  async ensureDefaultAccount(): Promise<void> {
    if (await this.accounts.getAccount(DEFAULT_ACCOUNT_ID)) return;
    try {
      await this.accounts.createAccount({
        id: DEFAULT_ACCOUNT_ID,
        name: 'Default',
        settings: {},
        createdAt: this.clock.now(),
      });
    } catch (err) {
      // Another instance created it in the meantime.
      if (!(await this.accounts.getAccount(DEFAULT_ACCOUNT_ID))) throw err;
    }
  }

  createAccount(name: string, settings: AccountSettings = {}): Promise<Account> {
    return this.accounts.createAccount({ id: newId('acc'), name, settings, createdAt: this.clock.now() });
  }

  listAccounts(): Promise<Account[]> {
    return this.accounts.listAccounts();
  }

  getAccount(id: string): Promise<Account | null> {
    return this.accounts.getAccount(id);
  }

  /** Merges `patch` into the account's settings; a field set to null returns to the default. */
  async updateSettings(id: string, patch: Record<string, unknown>): Promise<Account | null> {
    const account = await this.accounts.getAccount(id);
    if (!account) return null;
    const next: Record<string, unknown> = { ...account.settings };
    for (const [name, value] of Object.entries(patch)) {
      if (name === 'branding') {
        next.branding = mergeBranding(account.settings.branding, value as Record<string, unknown> | null);
        if (next.branding === undefined) delete next.branding;
      } else if (value === null) delete next[name];
      else next[name] = value;
    }
    return this.accounts.updateAccountSettings(id, next as AccountSettings);
  }

  /**
   * Keeps `image` as the account's logo and records it in the branding (what a send reads, with
   * the key, so a send looks nothing else up). null when the account does not exist.
   */
  async setLogo(id: string, image: LogoImage): Promise<Account | null> {
    const account = await this.accounts.getAccount(id);
    if (!account) return null;
    const version = this.clock.now();
    await this.accounts.putAccountLogo(id, { ...image, updatedAt: version });
    const logo = { contentType: image.contentType, bytes: image.data.length, version };
    return this.saveBranding(account, withLogo(account.settings.branding, logo));
  }

  /** Removes the account's logo; null when the account does not exist. */
  async deleteLogo(id: string): Promise<Account | null> {
    const account = await this.accounts.getAccount(id);
    if (!account) return null;
    // The branding first: a send never points at an image that is gone.
    const saved = await this.saveBranding(account, withLogo(account.settings.branding, null));
    await this.accounts.deleteAccountLogo(id);
    return saved;
  }

  private saveBranding(account: Account, branding: Partial<Branding> | undefined) {
    const { branding: _old, ...rest } = account.settings;
    return this.accounts.updateAccountSettings(account.id, branding ? { ...rest, branding } : rest);
  }

  /** Creates a key; null when the account does not exist. */
  async createKey(input: {
    name: string;
    channels: Channel[];
    accountId?: string;
    mode?: Mode;
  }): Promise<CreatedKey | null> {
    const accountId = input.accountId ?? DEFAULT_ACCOUNT_ID;
    if (!(await this.accounts.getAccount(accountId))) return null;
    const mode = input.mode ?? 'live';
    const key = generateApiKeySecret(mode);
    const record = await this.accounts.createApiKey({
      id: newId('key'),
      accountId,
      name: input.name,
      prefix: keyPrefix(key),
      keyHash: hashApiKey(key),
      channels: [...new Set(input.channels)],
      mode,
      createdAt: this.clock.now(),
    });
    return { record, key };
  }

  listKeys(accountId?: string): Promise<ApiKeyRecord[]> {
    return this.accounts.listApiKeys(accountId);
  }

  /** Renames a live key or changes its channels; null when it does not exist or is revoked. */
  updateKey(id: string, patch: { name?: string; channels?: Channel[] }): Promise<ApiKeyRecord | null> {
    return this.accounts.updateApiKey(id, {
      name: patch.name,
      channels: patch.channels ? [...new Set(patch.channels)] : undefined,
    });
  }

  /** Revokes a live key; the key as it is now, or null when it does not exist or was revoked already. */
  async revokeKey(id: string): Promise<ApiKeyRecord | null> {
    if (!(await this.accounts.revokeApiKey(id, this.clock.now()))) return null;
    return this.accounts.getApiKey(id);
  }

  /** An account's uploaded logo (served publicly); null when it has none. */
  getLogo(accountId: string): Promise<StoredLogo | null> {
    return this.accounts.getAccountLogo(accountId.toLowerCase());
  }

  /** Issues a new secret with the same name, channels and account; the old key is revoked. */
  async rotateKey(id: string): Promise<CreatedKey | null> {
    const old = await this.accounts.getApiKey(id);
    if (!old || old.revokedAt !== null) return null;
    const key = generateApiKeySecret(old.mode);
    const record = await this.accounts.rotateApiKey(
      id,
      {
        id: newId('key'),
        accountId: old.accountId,
        name: old.name,
        prefix: keyPrefix(key),
        keyHash: hashApiKey(key),
        channels: old.channels,
        mode: old.mode,
        createdAt: this.clock.now(),
      },
      this.clock.now(),
    );
    return record ? { record, key } : null;
  }
}
