-- WhatsApp calls that speak a code (WHATSAPP with deliveryType CALL, src/delivery/providers/whatsapp/).
-- `whatsapp_calls`: one row per request delivered by a call, the state of its permission request and
-- of its call, so that timers and replies survive a restart and any instance can take a webhook:
-- `sealed_code` is the code sealed with AES-256-GCM under a key derived from CODE_SECRET (the only
-- form in which a code is kept besides its keyed hash), erased (NULL) once the call ended or the
-- request left pending; `due_at` is when the worker must look at it again (no reply to the
-- permission request by the code's expiry, no answer within 30 s); `holder` is the instance whose
-- process holds the call's media, `answer_sdp` WhatsApp's SDP answer handed to it by whichever
-- instance received the `calls` webhook. `whatsapp_call_permissions`: the user's call permission
-- per account (temporary until `expires_at`, or permanent), so that a later CALL calls at once.
-- A version before this one never reads the tables.
-- rollback: tolerated
-- The twin of migrations/postgres/160_whatsapp_calls.sql.
CREATE TABLE whatsapp_calls (
  id TEXT PRIMARY KEY,
  verification_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  wa_user TEXT NOT NULL,
  locale TEXT NOT NULL,
  request_text TEXT NOT NULL,
  state TEXT NOT NULL,
  sealed_code TEXT,
  expires_at INTEGER NOT NULL,
  due_at INTEGER,
  permission_message_id TEXT,
  call_id TEXT,
  holder TEXT,
  answer_sdp TEXT,
  outcome TEXT,
  duration_seconds INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
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
  expires_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, wa_user)
) WITHOUT ROWID;
