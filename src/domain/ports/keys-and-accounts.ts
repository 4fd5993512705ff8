import type { Account, AccountSettings, ApiKeyRecord, AuthenticatedKey, Channel, Mode } from '../types.js';

export interface NewApiKey {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  keyHash: string;
  channels: Channel[];
  mode: Mode;
  createdAt: number;
}

export interface ApiKeyPatch {
  name?: string;
  channels?: Channel[];
}

/** An account's uploaded logo as stored. */
export interface StoredLogo {
  contentType: string;
  data: Buffer;
  updatedAt: number;
}

/** Accounts, their settings and logos, and their API keys. Each method is one atomic unit. */
export interface KeysAndAccounts {
  createAccount(account: Account): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  getAccount(id: string): Promise<Account | null>;
  updateAccountSettings(id: string, settings: AccountSettings): Promise<Account | null>;
  /** Keeps (or replaces) an account's uploaded logo. */
  putAccountLogo(accountId: string, logo: StoredLogo): Promise<void>;
  getAccountLogo(accountId: string): Promise<StoredLogo | null>;
  deleteAccountLogo(accountId: string): Promise<void>;

  createApiKey(key: NewApiKey): Promise<ApiKeyRecord>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  getApiKey(id: string): Promise<ApiKeyRecord | null>;
  /** The live (not revoked) key with this hash, joined with its account's settings. */
  findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null>;
  /** Marks a key revoked; false when it does not exist or was revoked already. */
  revokeApiKey(id: string, now: number): Promise<boolean>;
  /** Renames a live key or changes its channels; null when it does not exist or is revoked. */
  updateApiKey(id: string, patch: ApiKeyPatch): Promise<ApiKeyRecord | null>;
  /** Sets each key's last use (epoch ms) unless a later one is stored already. */
  recordApiKeyUses(uses: ReadonlyMap<string, number>): Promise<void>;
  /** Revokes `oldId` and creates `replacement` in one transaction; null when `oldId` is not live. */
  rotateApiKey(oldId: string, replacement: NewApiKey, now: number): Promise<ApiKeyRecord | null>;
}
