import type {
  ApiKeyPatch,
  KeysAndAccounts,
  NewApiKey,
  StoredLogo,
} from '../../domain/ports/keys-and-accounts.js';
import type { Account, AccountSettings, ApiKeyRecord, AuthenticatedKey } from '../../domain/types.js';
import { postgresMode } from '../mode.js';
import {
  type AccountRow,
  type ApiKeyRow,
  newKeyRecord,
  rowToAccount,
  rowToApiKey,
  rowToAuthenticatedKey,
} from '../rows.js';
import type { PostgresConnection } from './connection.js';
import { SQL } from './statements.js';
import type { Runner } from './transaction.js';

/** Accounts, logos and API keys on PostgreSQL. */
export class PostgresKeysAndAccounts implements KeysAndAccounts {
  constructor(private readonly db: PostgresConnection) {}

  async createAccount(account: Account) {
    await this.db.query(SQL.insertAccount, [
      account.id,
      account.name,
      JSON.stringify(account.settings),
      account.createdAt,
    ]);
    return account;
  }

  async listAccounts() {
    return (await this.db.query<AccountRow>(SQL.listAccounts)).rows.map(rowToAccount);
  }

  async getAccount(id: string) {
    const row = (await this.db.query<AccountRow>(SQL.getAccount, [id])).rows[0];
    return row ? rowToAccount(row) : null;
  }

  async updateAccountSettings(id: string, settings: AccountSettings) {
    const row = (await this.db.query<AccountRow>(SQL.updateAccountSettings, [JSON.stringify(settings), id]))
      .rows[0];
    return row ? rowToAccount(row) : null;
  }

  async putAccountLogo(accountId: string, logo: StoredLogo) {
    await this.db.query(SQL.putLogo, [accountId, logo.contentType, logo.data, logo.updatedAt]);
  }

  async getAccountLogo(accountId: string) {
    const row = (
      await this.db.query<{ content_type: string; data: Buffer; updated_at: string }>(SQL.getLogo, [
        accountId,
      ])
    ).rows[0];
    return row ? { contentType: row.content_type, data: row.data, updatedAt: Number(row.updated_at) } : null;
  }

  async deleteAccountLogo(accountId: string) {
    await this.db.query(SQL.deleteLogo, [accountId]);
  }

  createApiKey(key: NewApiKey) {
    return this.insertKey(key);
  }

  private async insertKey(key: NewApiKey, runner?: Runner): Promise<ApiKeyRecord> {
    await this.db.query(
      SQL.insertKey,
      [
        key.id,
        key.accountId,
        key.name,
        key.prefix,
        key.keyHash,
        key.channels.join(','),
        postgresMode(key.mode),
        key.createdAt,
      ],
      runner,
    );
    return newKeyRecord(key);
  }

  async listApiKeys(accountId?: string) {
    const { rows } = accountId
      ? await this.db.query<ApiKeyRow>(SQL.listKeysOf, [accountId])
      : await this.db.query<ApiKeyRow>(SQL.listKeys);
    return rows.map(rowToApiKey);
  }

  async getApiKey(id: string) {
    const row = (await this.db.query<ApiKeyRow>(SQL.getKey, [id])).rows[0];
    return row ? rowToApiKey(row) : null;
  }

  async findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null> {
    const row = (
      await this.db.query<ApiKeyRow & { account_settings: AccountSettings }>(SQL.findActiveKey, [keyHash])
    ).rows[0];
    return row ? rowToAuthenticatedKey(row) : null;
  }

  async revokeApiKey(id: string, now: number) {
    return ((await this.db.query(SQL.revokeKey, [now, id])).rowCount ?? 0) > 0;
  }

  async updateApiKey(id: string, patch: ApiKeyPatch) {
    const row = (
      await this.db.query<ApiKeyRow>(SQL.updateKey, [
        patch.name ?? null,
        patch.channels ? patch.channels.join(',') : null,
        id,
      ])
    ).rows[0];
    return row ? rowToApiKey(row) : null;
  }

  async recordApiKeyUses(uses: ReadonlyMap<string, number>) {
    if (uses.size === 0) return;
    await this.db.query(SQL.recordKeyUses, [[...uses.keys()], [...uses.values()]]);
  }

  rotateApiKey(oldId: string, replacement: NewApiKey, now: number) {
    return this.db.transaction(async (client) => {
      const revoked = await this.db.query(SQL.revokeKey, [now, oldId], client);
      if (!revoked.rowCount) return null;
      return this.insertKey(replacement, client);
    });
  }
}
