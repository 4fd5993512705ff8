-- An account's uploaded logo (PUT /v1/admin/accounts/{id}/logo), served publicly at
-- /v1/branding/{accountId}/logo. At most 100 KiB, checked by its magic bytes before it is stored.
-- The account's branding records that it exists (settings.branding.logo), so a send reads nothing here.
CREATE TABLE account_logos (
  account_id TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  data BLOB NOT NULL,
  updated_at INTEGER NOT NULL
);
