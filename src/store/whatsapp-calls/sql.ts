import type {
  CallJob,
  CallJobChange,
  CallJobState,
  CallPermissionRecord,
  NewCallJob,
} from '../../domain/ports/whatsapp-calls.js';

/**
 * The statements of the WhatsApp call jobs (migration 160), written once with `?` placeholders for
 * both dialects (PostgreSQL numbers them: ../placeholders.ts).
 */
const COLUMNS = `id, verification_id, account_id, wa_user, locale, request_text, state, sealed_code, expires_at,
  due_at, permission_message_id, call_id, holder, answer_sdp, outcome, duration_seconds, created_at, updated_at`;

/** The states in which the call's media lives in its holder's process. */
export const HELD_STATES: readonly CallJobState[] = ['placing', 'calling', 'answered'];

export const CALL_SQL = {
  insert: `INSERT INTO whatsapp_calls (id, verification_id, account_id, wa_user, locale, request_text, state,
      sealed_code, expires_at, due_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  get: `SELECT ${COLUMNS} FROM whatsapp_calls WHERE id = ?`,
  byCallId: `SELECT ${COLUMNS} FROM whatsapp_calls WHERE call_id = ?`,
  awaiting: `SELECT ${COLUMNS} FROM whatsapp_calls WHERE wa_user = ? AND state = 'awaiting_permission'
      ORDER BY created_at`,
  due: `SELECT ${COLUMNS} FROM whatsapp_calls WHERE due_at IS NOT NULL AND due_at <= ? ORDER BY due_at LIMIT ?`,
  heldBy: `SELECT ${COLUMNS} FROM whatsapp_calls WHERE holder = ? AND state IN ('placing', 'calling', 'answered')`,
  // A job not yet calling whose request left pending ends quietly; an ended one loses any sealed
  // code it still has. Calls under way keep theirs until they end (the flow erases it then).
  endSettled: `UPDATE whatsapp_calls SET state = 'ended', sealed_code = NULL, due_at = NULL,
      outcome = coalesce(outcome, 'request_settled'), updated_at = ?
    WHERE id IN (SELECT c.id FROM whatsapp_calls c LEFT JOIN verifications v ON v.id = c.verification_id
      WHERE c.sealed_code IS NOT NULL
        AND (c.state = 'ended' OR (c.state IN ('new', 'starting', 'awaiting_permission')
          AND (v.id IS NULL OR v.status <> 'pending')))
      LIMIT ?)
    RETURNING ${COLUMNS}`,
  sweep: `DELETE FROM whatsapp_calls WHERE id IN (
      SELECT id FROM whatsapp_calls WHERE state = 'ended' AND updated_at < ? LIMIT ?)`,
  permission: `SELECT account_id, wa_user, kind, expires_at, updated_at FROM whatsapp_call_permissions
      WHERE account_id = ? AND wa_user = ?`,
  putPermission: `INSERT INTO whatsapp_call_permissions (account_id, wa_user, kind, expires_at, updated_at)
      VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, wa_user) DO UPDATE SET kind = excluded.kind,
      expires_at = excluded.expires_at, updated_at = excluded.updated_at`,
  dropPermission: 'DELETE FROM whatsapp_call_permissions WHERE account_id = ? AND wa_user = ?',
};

const CHANGE_COLUMNS: Record<keyof CallJobChange, string> = {
  state: 'state',
  sealedCode: 'sealed_code',
  dueAt: 'due_at',
  permissionMessageId: 'permission_message_id',
  callId: 'call_id',
  holder: 'holder',
  answerSdp: 'answer_sdp',
  outcome: 'outcome',
  durationSeconds: 'duration_seconds',
};

/** The conditional update of one move: its statement (cached per shape by the caller) and its values. */
export function moveStatement(
  id: string,
  from: readonly CallJobState[],
  change: CallJobChange,
  now: number,
  expect?: { dueAt: number | null },
): { sql: string; params: unknown[] } {
  const keys = (Object.keys(change) as Array<keyof CallJobChange>).filter((k) => change[k] !== undefined);
  const sets = [...keys.map((k) => `${CHANGE_COLUMNS[k]} = ?`), 'updated_at = ?'];
  const states = from.map(() => '?').join(', ');
  const due = expect ? (expect.dueAt === null ? ' AND due_at IS NULL' : ' AND due_at = ?') : '';
  return {
    sql: `UPDATE whatsapp_calls SET ${sets.join(', ')} WHERE id = ? AND state IN (${states})${due}`,
    params: [
      ...keys.map((k) => change[k] ?? null),
      now,
      id,
      ...from,
      ...(expect && expect.dueAt !== null ? [expect.dueAt] : []),
    ],
  };
}

export const insertParams = (j: NewCallJob): unknown[] => [
  j.id,
  j.verificationId,
  j.accountId,
  j.waUser,
  j.locale,
  j.requestText,
  j.state,
  j.sealedCode,
  j.expiresAt,
  j.dueAt,
  j.createdAt,
  j.createdAt,
];

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

export function rowToCallJob(r: Record<string, unknown>): CallJob {
  return {
    id: String(r.id),
    verificationId: String(r.verification_id),
    accountId: String(r.account_id),
    waUser: String(r.wa_user),
    locale: String(r.locale),
    requestText: String(r.request_text),
    state: String(r.state) as CallJobState,
    sealedCode: str(r.sealed_code),
    expiresAt: Number(r.expires_at),
    dueAt: num(r.due_at),
    permissionMessageId: str(r.permission_message_id),
    callId: str(r.call_id),
    holder: str(r.holder),
    answerSdp: str(r.answer_sdp),
    outcome: str(r.outcome),
    durationSeconds: num(r.duration_seconds),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export const rowToPermission = (r: Record<string, unknown>): CallPermissionRecord => ({
  accountId: String(r.account_id),
  waUser: String(r.wa_user),
  kind: r.kind === 'permanent' ? 'permanent' : 'temporary',
  expiresAt: num(r.expires_at),
  updatedAt: Number(r.updated_at),
});

export const permissionParams = (p: CallPermissionRecord): unknown[] => [
  p.accountId,
  p.waUser,
  p.kind,
  p.expiresAt,
  p.updatedAt,
];
