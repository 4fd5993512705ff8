import type {
  ApiKeyPatch,
  KeysAndAccounts,
  NewApiKey,
  StoredLogo,
} from '../../domain/ports/keys-and-accounts.js';
import type { Account, AccountSettings, ApiKeyRecord, AuthenticatedKey } from '../../domain/types.js';
import { sqliteMode } from '../mode.js';
import {
  type AccountRow,
  type ApiKeyRow,
  newKeyRecord,
  rowToAccount,
  rowToApiKey,
  rowToAuthenticatedKey,
} from '../rows.js';
import type { GroupCommit } from './group-commit.js';
import type { Statements } from './statements.js';

/** Accounts, logos and API keys on the SQLite connection: each write is one unit of its group commit. */
export class SqliteKeysAndAccounts implements KeysAndAccounts {
  constructor(
    private readonly tx: GroupCommit,
    private readonly stmts: Statements,
  ) {}

  createAccount(account: Account) {
    return this.tx.write(() => {
      this.stmts.insertAccount.run(
        account.id,
        account.name,
        JSON.stringify(account.settings),
        account.createdAt,
      );
      return account;
    });
  }

  listAccounts() {
    return this.tx.read(() => (this.stmts.listAccounts.all() as AccountRow[]).map(rowToAccount));
  }

  getAccount(id: string) {
    return this.tx.read(() => {
      const row = this.stmts.getAccount.get(id) as AccountRow | undefined;
      return row ? rowToAccount(row) : null;
    });
  }

  updateAccountSettings(id: string, settings: AccountSettings) {
    return this.tx.write(() => {
      this.stmts.updateAccountSettings.run(JSON.stringify(settings), id);
      const row = this.stmts.getAccount.get(id) as AccountRow | undefined;
      return row ? rowToAccount(row) : null;
    });
  }

  putAccountLogo(accountId: string, logo: StoredLogo) {
    return this.tx.write(() => {
      this.stmts.putLogo.run(accountId, logo.contentType, logo.data, logo.updatedAt);
    });
  }

  getAccountLogo(accountId: string) {
    return this.tx.read(() => {
      const row = this.stmts.getLogo.get(accountId) as
        | { content_type: string; data: Buffer; updated_at: number }
        | undefined;
      return row
        ? { contentType: row.content_type, data: row.data, updatedAt: Number(row.updated_at) }
        : null;
    });
  }

  deleteAccountLogo(accountId: string) {
    return this.tx.write(() => {
      this.stmts.deleteLogo.run(accountId);
    });
  }

  createApiKey(key: NewApiKey) {
    return this.tx.write(() => this.insertKey(key));
  }

  private insertKey(key: NewApiKey): ApiKeyRecord {
    this.stmts.insertKey.run(
      key.id,
      key.accountId,
      key.name,
      key.prefix,
      key.keyHash,
      key.channels.join(','),
      sqliteMode(key.mode),
      key.createdAt,
    );
    return newKeyRecord(key);
  }

  listApiKeys(accountId?: string) {
    return this.tx.read(() => {
      const rows = (
        accountId ? this.stmts.listKeysOf.all(accountId) : this.stmts.listKeys.all()
      ) as ApiKeyRow[];
      return rows.map(rowToApiKey);
    });
  }

  getApiKey(id: string) {
    return this.tx.read(() => {
      const row = this.stmts.getKey.get(id) as ApiKeyRow | undefined;
      return row ? rowToApiKey(row) : null;
    });
  }

  findActiveApiKey(keyHash: string): Promise<AuthenticatedKey | null> {
    // Not routed through the batch: a key is used only after the request that created it
    // was answered, i.e. after its batch committed.
    const row = this.tx.waitingIfBusy(() => this.stmts.findActiveKey.get(keyHash)) as
      | (ApiKeyRow & { account_settings: string })
      | undefined;
    if (!row) return Promise.resolve(null);
    return Promise.resolve(rowToAuthenticatedKey(row));
  }

  revokeApiKey(id: string, now: number) {
    return this.tx.write(() => this.stmts.revokeKey.run(now, id).changes > 0);
  }

  updateApiKey(id: string, patch: ApiKeyPatch) {
    return this.tx.write(() => {
      const row = this.stmts.getKey.get(id) as ApiKeyRow | undefined;
      if (!row || row.revoked_at !== null) return null;
      this.stmts.updateKey.run(
        patch.name ?? row.name,
        patch.channels ? patch.channels.join(',') : row.channels,
        id,
      );
      return rowToApiKey(this.stmts.getKey.get(id) as ApiKeyRow);
    });
  }

  async recordApiKeyUses(uses: ReadonlyMap<string, number>) {
    if (uses.size === 0) return;
    await this.tx.write(() => {
      for (const [id, at] of uses) this.stmts.recordKeyUse.run(at, id, at);
    }, false);
  }

  rotateApiKey(oldId: string, replacement: NewApiKey, now: number) {
    return this.tx.write(() => {
      if (this.stmts.revokeKey.run(now, oldId).changes === 0) return null;
      return this.insertKey(replacement);
    });
  }
}
