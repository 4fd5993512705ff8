/**
 * The WhatsApp calls that speak codes (WHATSAPP with deliveryType CALL) and the users' call
 * permissions, as the calling flow (src/delivery/providers/whatsapp/whatsapp.call-flow.ts) keeps
 * them: on the database, so that a restart loses no timer and any instance can take a webhook.
 * Every method is one statement (one atomic unit).
 */

/**
 * Where a call job is: `new` (stored by the send, not started), `starting` (an instance claimed it
 * and asks for the permission), `awaiting_permission` (the
 * permission request was sent), `placing` (an instance claimed it and is placing the call),
 * `calling` (WhatsApp took the call: it rings), `answered` (media up, the code is being spoken),
 * `ended` (completed or undelivered: `outcome` says which).
 */
export const CALL_JOB_STATES = [
  'new',
  'starting',
  'awaiting_permission',
  'placing',
  'calling',
  'answered',
  'ended',
] as const;
export type CallJobState = (typeof CALL_JOB_STATES)[number];

export interface CallJob {
  id: string;
  verificationId: string;
  accountId: string;
  /** The user's WhatsApp id: the number's digits, without `+`. */
  waUser: string;
  /** The locale the call speaks (the request's). */
  locale: string;
  /** The body of the permission request, rendered at send time (no code in it). */
  requestText: string;
  state: CallJobState;
  /** The code sealed (AES-256-GCM, a key derived from CODE_SECRET); null once erased. */
  sealedCode: string | null;
  /** When the code expires, epoch ms. */
  expiresAt: number;
  /** When the worker must look at the job again; null: nothing is due. */
  dueAt: number | null;
  permissionMessageId: string | null;
  callId: string | null;
  /** The instance whose process holds the call's media. */
  holder: string | null;
  /** WhatsApp's SDP answer, as the `calls` webhook gave it, for the holder to apply. */
  answerSdp: string | null;
  /** `completed`, or the reason the code was not delivered (`rejected`, `no_answer` …). */
  outcome: string | null;
  durationSeconds: number | null;
  createdAt: number;
  updatedAt: number;
}

export type NewCallJob = Omit<
  CallJob,
  'permissionMessageId' | 'callId' | 'holder' | 'answerSdp' | 'outcome' | 'durationSeconds' | 'updatedAt'
>;

/** The fields a move may set (absent: unchanged; null: cleared). */
export type CallJobChange = Partial<
  Pick<
    CallJob,
    | 'state'
    | 'sealedCode'
    | 'dueAt'
    | 'permissionMessageId'
    | 'callId'
    | 'holder'
    | 'answerSdp'
    | 'outcome'
    | 'durationSeconds'
  >
>;

/** A user's call permission for an account, as the last reply or check found it. */
export interface CallPermissionRecord {
  accountId: string;
  waUser: string;
  kind: 'temporary' | 'permanent';
  /** A temporary permission's end, epoch ms; null for a permanent one. */
  expiresAt: number | null;
  updatedAt: number;
}

export interface WhatsAppCalls {
  insert(job: NewCallJob): Promise<void>;
  get(id: string): Promise<CallJob | null>;
  /**
   * Applies `change` when the job is in one of `from` (and, with `dueAt` in `expect`, still due
   * then): true for the one caller that moved it, so two instances taking the same webhook or the
   * same due job act once.
   */
  move(
    id: string,
    from: readonly CallJobState[],
    change: CallJobChange,
    now: number,
    expect?: { dueAt: number | null },
  ): Promise<boolean>;
  /** The job of a WhatsApp call id. */
  byCallId(callId: string): Promise<CallJob | null>;
  /** The jobs waiting for this user's permission (in every account), oldest first. */
  awaitingPermission(waUser: string): Promise<CallJob[]>;
  /** Jobs whose `due_at` has passed, oldest first. */
  due(now: number, limit: number): Promise<CallJob[]>;
  /** The live jobs an instance holds the media of (`placing`, `calling`, `answered`). */
  heldBy(holder: string): Promise<CallJob[]>;
  /**
   * Ends the jobs whose request is no longer pending or whose code expired, erasing their sealed
   * code (and any sealed code left on an ended job); answers the jobs it ended.
   */
  endSettled(now: number, limit: number): Promise<CallJob[]>;
  /** Deletes ended jobs last changed before `before`. */
  sweep(before: number, limit: number): Promise<number>;
  permission(accountId: string, waUser: string): Promise<CallPermissionRecord | null>;
  putPermission(permission: CallPermissionRecord): Promise<void>;
  dropPermission(accountId: string, waUser: string): Promise<void>;
}
