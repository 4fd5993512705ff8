-- WhatsApp calls that speak a code and the users' call permissions; the twin of
-- migrations/sqlite/160_whatsapp_calls.sql, which says what each column holds.
-- A version before this one never reads the tables.
-- rollback: tolerated
CREATE TABLE whatsapp_calls (
  id TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  wa_user TEXT NOT NULL,
  locale TEXT NOT NULL,
  request_text TEXT NOT NULL,
  state TEXT NOT NULL,
  sealed_code TEXT,
  expires_at BIGINT NOT NULL,
  due_at BIGINT,
  permission_message_id TEXT,
  call_id TEXT,
  holder TEXT,
  answer_sdp TEXT,
  outcome TEXT,
  duration_seconds INTEGER,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX whatsapp_calls_due ON whatsapp_calls (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX whatsapp_calls_user ON whatsapp_calls (wa_user) WHERE state = 'awaiting_permission';
CREATE INDEX whatsapp_calls_call ON whatsapp_calls (call_id) WHERE call_id IS NOT NULL;
CREATE INDEX whatsapp_calls_holder ON whatsapp_calls (holder) WHERE holder IS NOT NULL;
CREATE INDEX whatsapp_calls_sealed ON whatsapp_calls (verification_id) WHERE sealed_code IS NOT NULL;
CREATE INDEX whatsapp_calls_updated ON whatsapp_calls (updated_at);
CREATE TABLE whatsapp_call_permissions (
  account_id TEXT NOT NULL,
  wa_user TEXT NOT NULL,
  kind TEXT NOT NULL,
  expires_at BIGINT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (account_id, wa_user)
);
