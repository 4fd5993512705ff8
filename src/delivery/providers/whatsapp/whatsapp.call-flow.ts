import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../../domain/clock.js';
import type { CallJob, CallJobState, WhatsAppCalls } from '../../../domain/ports/whatsapp-calls.js';
import type { DeliveryStatus, VerificationStatus } from '../../../domain/types.js';
import type { CodeCall } from '../../../media/code-call.js';
import { MediaError } from '../../../media/media-error.js';
import { codeReading, loadPromptSet, PROMPTS_DIR, promptLanguages } from '../../../media/prompts.js';
import type { MediaOptions } from '../../../media/settings.js';
import type { DeliveryRequest, SendOutcome } from '../../interface.js';
import { renderCallPermissionRequest } from '../../messages.js';
import type { StateSeal } from '../state-seal.js';
import type {
  CallConnect,
  CallEvent,
  CallStatus,
  CallTerminate,
  PermissionReply,
} from './whatsapp.call-events.js';
import { type CallUndeliveredReason, undeliveredError } from './whatsapp.call-reasons.js';
import type { CallingFailure, WhatsAppCalling } from './whatsapp.calling.js';

/** The provider name a WhatsApp call is recorded under on its request. */
export const WHATSAPP_CALL_PROVIDER = 'whatsapp-call';

/** Meta's error codes of its calling limits, as far as the documentation names them (docs/delivery.md). */
const CALL_LIMIT_ERRORS = new Set([138012]);
const REQUEST_LIMIT_ERRORS = new Set([138013]);
/** How long a claimed start may take before another pass takes it over (its process died). */
const STARTING_MS = 60_000;
/** Pauses before looking again for the request a permission reply answers (as for provider callbacks). */
const REPLY_RETRY_MS = [100, 400, 1500];

export interface CallTimings {
  /** A call not answered within this is ended (`no_answer`). */
  ringTimeoutMs: number;
  /** From the SDP answer to the media connection. */
  connectTimeoutMs: number;
  /** How often the worker looks for due jobs. */
  tickMs: number;
  /** How often an instance holding calls looks for answers handed to it by another instance. */
  holderPollMs: number;
  /** A job stored by a send and not started within this (its instance died) is started by the worker. */
  startGraceMs: number;
  /** A retryable failure of the Graph API is tried again after this. */
  retryMs: number;
  /** Ended jobs are deleted after this. */
  retentionMs: number;
}

const TIMINGS: CallTimings = {
  ringTimeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  tickMs: 1_000,
  holderPollMs: 250,
  startGraceMs: 10_000,
  retryMs: 5_000,
  retentionMs: 86_400_000,
};

export interface CallFlowDeps {
  jobs: WhatsAppCalls;
  calling: WhatsAppCalling;
  /** Records a delivery state on the request the job delivers (see DeliveryStatus). */
  report(
    job: Pick<CallJob, 'id' | 'verificationId'>,
    status: DeliveryStatus,
    error: string | null,
  ): Promise<void>;
  /** The request's status now (null when it is gone). */
  requestStatus(accountId: string, verificationId: string): Promise<VerificationStatus | null>;
  /** Seals the code while it waits (AES-256-GCM under a key derived from CODE_SECRET). */
  seal: StateSeal;
  media: MediaOptions;
  clock: Clock;
  logger: Logger;
  /** This process, as `holder` names it. */
  instanceId: string;
  timings?: Partial<CallTimings>;
  /** Where the prompts are (tests may give another directory). */
  promptsDir?: string;
}

/** A call whose media this process holds. */
interface LiveCall {
  media: CodeCall;
  code: string;
  locale: string;
  callId: string | null;
  answering: boolean;
  stop: AbortController;
}

/** The states a job may be ended from by an event of its call. */
const CALL_STATES: readonly CallJobState[] = ['placing', 'calling', 'answered'];
const OPEN_STATES: readonly CallJobState[] = ['new', 'starting', 'awaiting_permission', ...CALL_STATES];

/**
 * The call's media (werift's WebRTC stack: about 8 MB of heap and its start-up) is loaded by a
 * deployment that places WhatsApp calls only: every other one never carries it. The flow starts
 * the load when it is built, so the first call does not wait for it.
 */
let codeCall: Promise<typeof import('../../../media/code-call.js')> | null = null;
const loadCodeCall = () => {
  codeCall ??= import('../../../media/code-call.js');
  return codeCall;
};

/**
 * A WHATSAPP CALL delivery, from the send to the end of the call (docs/delivery.md, "WhatsApp
 * calls"): the user's permission (asked for when missing), the reply, the call, the code spoken
 * over its audio, every state recorded on the request. Each step is a conditional move of the
 * job's row (WhatsAppCalls), so that a restart loses nothing and two instances taking the same
 * webhook act once. The media of a call lives in the process that placed it (its `holder`): a
 * `calls` webhook received by another instance stores the SDP answer on the row, and the holder,
 * which polls its rows while it holds calls, applies it.
 */
export class WhatsAppCallFlow {
  private readonly timings: CallTimings;
  private readonly live = new Map<string, LiveCall>();
  /** Work under way per job in this process, so that one job's steps never overlap here. */
  private readonly busy = new Map<string, Promise<void>>();
  private tickTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private sweptAt = 0;
  private readonly languages: Set<string>;

  constructor(private readonly deps: CallFlowDeps) {
    this.timings = { ...TIMINGS, ...deps.timings };
    this.languages = new Set(promptLanguages(deps.promptsDir ?? PROMPTS_DIR));
    // A failed load fails the first call that needs it, as media_failed (place).
    loadCodeCall().catch(() => {});
  }

  private now() {
    return this.deps.clock.now();
  }

  /**
   * The send's part (on the request path: one insert, no Graph API call, no media): the job is
   * stored with the code sealed, and starts once the request names it (`recorded`).
   */
  async accept(request: DeliveryRequest): Promise<SendOutcome> {
    const now = this.now();
    const id = randomUUID();
    await this.deps.jobs.insert({
      id,
      verificationId: request.verificationId,
      accountId: request.accountId,
      waUser: request.to.replace(/\D/g, ''),
      locale: request.locale,
      requestText: renderCallPermissionRequest(request),
      state: 'new',
      sealedCode: this.deps.seal.seal(`${id}:${request.code}`),
      expiresAt: now + request.codeTtlSeconds * 1000,
      // Started at once below; should this process die first, the worker starts it then.
      dueAt: now + this.timings.startGraceMs,
      createdAt: now,
    });
    return {
      ok: true,
      providerMessageId: id,
      accepted: 'queued',
      recorded: () => void this.serial(id, () => this.start(id)),
    };
  }

  /** Runs `work` after the job's earlier work in this process; failures are logged, not thrown. */
  private serial(id: string, work: () => Promise<void>): Promise<void> {
    const before = this.busy.get(id) ?? Promise.resolve();
    const next = before.then(work).catch((err: Error) => {
      this.deps.logger.error({ job: id, err: err?.message }, 'WhatsApp call step failed');
    });
    this.busy.set(id, next);
    void next.finally(() => {
      if (this.busy.get(id) === next) this.busy.delete(id);
    });
    return next;
  }

  /** Claims a new (or overdue) job and asks for the permission, or calls when it is given. */
  private async start(id: string, expectDueAt?: number | null): Promise<void> {
    const { jobs } = this.deps;
    const job = await jobs.get(id);
    if (!job || (job.state !== 'new' && job.state !== 'starting')) return;
    const claimed = await jobs.move(
      id,
      [job.state],
      // Longer than the Graph API calls of a start can take (two, each within its timeout): only a
      // start whose process died is taken over, never one still under way.
      { state: 'starting', holder: this.deps.instanceId, dueAt: this.now() + STARTING_MS },
      this.now(),
      { dueAt: expectDueAt === undefined ? job.dueAt : expectDueAt },
    );
    if (!claimed) return;
    const claim = { ...job, state: 'starting' as const };
    if ((await this.deps.requestStatus(job.accountId, job.verificationId)) !== 'pending') {
      await this.end(claim, ['starting'], 'request_settled');
      return;
    }
    if (this.now() >= job.expiresAt) {
      await this.undeliver(claim, ['starting'], 'code_expired');
      return;
    }
    const stored = await jobs.permission(job.accountId, job.waUser);
    if (stored && (stored.kind === 'permanent' || (stored.expiresAt ?? 0) > this.now())) {
      await this.place(claim, ['starting']);
      return;
    }
    const asked = await this.deps.calling.permission(job.waUser);
    if (!asked.ok) {
      await this.failedCall(claim, ['starting'], asked);
      return;
    }
    const p = asked.permission;
    if (p.status === 'granted') {
      await this.keepPermission(job, p.reported === 'permanent', p.expiresAt?.getTime() ?? null);
      if (!p.canCall) {
        await this.undeliver(claim, ['starting'], 'call_limit', limitSentence('call_limit', p.callLimits));
        return;
      }
      await this.place(claim, ['starting']);
      return;
    }
    if (stored) await jobs.dropPermission(job.accountId, job.waUser);
    if (!p.canRequest) {
      await this.undeliver(
        claim,
        ['starting'],
        'permission_request_limit',
        limitSentence('permission_request_limit', p.requestLimits),
      );
      return;
    }
    const sent = await this.deps.calling.requestPermission(job.waUser, { body: job.requestText });
    if (!sent.ok) {
      if (sent.retryable) return this.retryLater(claim);
      const limit = sent.code !== undefined && REQUEST_LIMIT_ERRORS.has(sent.code);
      await this.undeliver(
        claim,
        ['starting'],
        limit ? 'permission_request_limit' : 'permission_request_failed',
        sent.error,
      );
      return;
    }
    // No reply by the code's expiry: the worker ends it then (`permission_not_answered`).
    const moved = await jobs.move(
      id,
      ['starting'],
      {
        state: 'awaiting_permission',
        permissionMessageId: sent.messageId,
        dueAt: job.expiresAt,
        holder: null,
      },
      this.now(),
    );
    if (moved) await this.deps.report(job, 'awaiting_permission', null);
  }

  /** A retryable Graph API failure before the call: the worker tries again shortly (while the code lives). */
  private async retryLater(job: CallJob): Promise<void> {
    const at = this.now() + this.timings.retryMs;
    if (at >= job.expiresAt) {
      await this.undeliver(
        job,
        ['starting'],
        'call_failed',
        'WhatsApp could not be reached before the code expired',
      );
      return;
    }
    await this.deps.jobs.move(job.id, ['starting'], { state: 'new', dueAt: at, holder: null }, this.now());
  }

  private async failedCall(
    job: CallJob,
    from: readonly CallJobState[],
    failure: CallingFailure,
  ): Promise<void> {
    if (failure.retryable && from.includes('starting')) return this.retryLater(job);
    await this.undeliver(job, from, 'call_failed', failure.error);
  }

  private async keepPermission(job: CallJob, permanent: boolean, expiresAt: number | null): Promise<void> {
    await this.deps.jobs.putPermission({
      accountId: job.accountId,
      waUser: job.waUser,
      kind: permanent ? 'permanent' : 'temporary',
      // A temporary permission without a date: WhatsApp's 7 days.
      expiresAt: permanent ? null : (expiresAt ?? this.now() + 7 * 86_400_000),
      updatedAt: this.now(),
    });
  }

  /**
   * Places the call: claims the job (`placing`, held here), opens the code, builds the media peer
   * and its offer, and asks WhatsApp to connect. The answer comes in the `calls` webhook.
   */
  private async place(job: CallJob, from: readonly CallJobState[]): Promise<void> {
    const { jobs, calling } = this.deps;
    const claimed = await jobs.move(
      job.id,
      from,
      {
        state: 'placing',
        holder: this.deps.instanceId,
        dueAt: this.now() + this.timings.ringTimeoutMs + this.timings.connectTimeoutMs,
      },
      this.now(),
    );
    if (!claimed) return;
    const placing = { ...job, state: 'placing' as const };
    if (this.now() >= job.expiresAt) {
      await this.undeliver(placing, ['placing'], 'code_expired');
      return;
    }
    const code = this.openCode(job);
    if (code === null) {
      await this.undeliver(
        placing,
        ['placing'],
        'call_failed',
        'the sealed code could not be opened (CODE_SECRET changed?)',
      );
      return;
    }
    let media: CodeCall;
    try {
      media = await (await loadCodeCall()).CodeCall.create(this.deps.media);
    } catch (err) {
      await this.undeliver(placing, ['placing'], 'media_failed', `no media offer: ${(err as Error).message}`);
      return;
    }
    const live: LiveCall = {
      media,
      code,
      locale: job.locale,
      callId: null,
      answering: false,
      stop: new AbortController(),
    };
    this.live.set(job.id, live);
    this.pollHeld();
    const placed = await calling.connect(job.waUser, media.offer, job.id);
    if (!placed.ok) {
      await this.closeLive(job.id);
      if (placed.noPermission) {
        await jobs.dropPermission(job.accountId, job.waUser);
        await this.undeliver(placing, ['placing'], 'no_permission', placed.error);
      } else if (placed.code !== undefined && CALL_LIMIT_ERRORS.has(placed.code)) {
        await this.undeliver(placing, ['placing'], 'call_limit', placed.error);
      } else await this.undeliver(placing, ['placing'], 'call_failed', placed.error);
      return;
    }
    live.callId = placed.callId;
    // An answer may have come before this move (it was stored on the row): the poll applies it.
    const moved = await jobs.move(
      job.id,
      ['placing'],
      { state: 'calling', callId: placed.callId, dueAt: this.now() + this.timings.ringTimeoutMs },
      this.now(),
    );
    if (moved) await this.deps.report(job, 'calling', null);
    else {
      // Ended meanwhile (rejected at once): the call's id is still kept for its terminate webhook.
      await jobs.move(job.id, ['ended', 'answered'], { callId: placed.callId }, this.now());
    }
  }

  private openCode(job: CallJob): string | null {
    if (!job.sealedCode) return null;
    const plain = this.deps.seal.open(job.sealedCode);
    const prefix = `${job.id}:`;
    return plain?.startsWith(prefix) ? plain.slice(prefix.length) : null;
  }

  /** The signed webhook's calling events (the signature was checked by the route). */
  async handle(events: readonly CallEvent[]): Promise<void> {
    for (const event of events) {
      if (event.kind === 'permission_reply') await this.onReply(event);
      else if (event.kind === 'connect') await this.onConnect(event);
      else if (event.kind === 'status') await this.onStatus(event);
      else await this.onTerminate(event);
    }
  }

  private async onReply(reply: PermissionReply): Promise<void> {
    let waiting = await this.deps.jobs.awaitingPermission(reply.from);
    // A quick (or automatic) reply can outrun the record of its request: look again shortly.
    for (const pause of REPLY_RETRY_MS) {
      if (waiting.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, pause));
      waiting = await this.deps.jobs.awaitingPermission(reply.from);
    }
    // The reply quotes its request; an automatic reply (a standing choice) may quote none.
    const quoted = waiting.filter((j) => j.permissionMessageId === reply.requestMessageId);
    const jobs = quoted.length > 0 ? quoted : waiting;
    const accounts = new Set<string>();
    for (const job of jobs) {
      if (!accounts.has(job.accountId)) {
        accounts.add(job.accountId);
        if (reply.accepted)
          await this.keepPermission(job, reply.permanent, reply.expiresAt?.getTime() ?? null);
        else await this.deps.jobs.dropPermission(job.accountId, job.waUser);
      }
      if (reply.accepted) await this.serial(job.id, () => this.place(job, ['awaiting_permission']));
      else await this.undeliver(job, ['awaiting_permission'], 'permission_rejected');
    }
  }

  private async jobOf(event: { callId: string; tracking: string | null }): Promise<CallJob | null> {
    const byTracking = event.tracking ? await this.deps.jobs.get(event.tracking) : null;
    return byTracking ?? (await this.deps.jobs.byCallId(event.callId));
  }

  private async onConnect(event: CallConnect): Promise<void> {
    if (!event.sdp || event.sdpType !== 'answer') return;
    const job = await this.jobOf(event);
    if (!job || !CALL_STATES.includes(job.state)) return;
    // Handed to the holder through the row; when this process is the holder, applied at once.
    await this.deps.jobs.move(job.id, CALL_STATES, { answerSdp: event.sdp }, this.now());
    if (this.live.has(job.id)) void this.serial(job.id, () => this.answer(job.id, event.sdp as string));
  }

  private async onStatus(event: CallStatus): Promise<void> {
    const job = await this.jobOf(event);
    if (!job) return;
    if (event.status === 'REJECTED') {
      await this.undeliver(job, CALL_STATES, 'rejected');
    } else if (event.status === 'ACCEPTED' && CALL_STATES.includes(job.state)) {
      await this.deps.report(job, 'answered', null);
    }
  }

  private async onTerminate(event: CallTerminate): Promise<void> {
    const job = await this.jobOf(event);
    if (!job) return;
    const { jobs } = this.deps;
    // Its length is kept whatever ended the call (the business's terminate, the user, a failure).
    if (event.durationSeconds !== null)
      await jobs.move(
        job.id,
        [...OPEN_STATES, 'ended'],
        { durationSeconds: event.durationSeconds },
        this.now(),
      );
    if (job.state === 'ended') return;
    if (event.status === 'COMPLETED' && job.state === 'answered') {
      await this.complete(job);
      return;
    }
    // Rung out or hung up before answering: no answer; ended while being placed or spoken: failed.
    const reason: CallUndeliveredReason = job.state === 'calling' ? 'no_answer' : 'call_failed';
    await this.undeliver(
      job,
      CALL_STATES,
      reason,
      event.errorCode ? `WhatsApp ended the call (error ${event.errorCode})` : undefined,
    );
  }

  /** The holder's part: applies the SDP answer, waits for the media and speaks the code twice. */
  private async answer(id: string, sdp: string): Promise<void> {
    const live = this.live.get(id);
    if (!live || live.answering) return;
    live.answering = true;
    const { jobs } = this.deps;
    const job = await jobs.get(id);
    if (!job || !CALL_STATES.includes(job.state)) {
      await this.closeLive(id);
      return;
    }
    const packets = codeReading(live.code, this.prompts(live.locale));
    const playMs = packets.length * 20;
    await jobs.move(
      id,
      CALL_STATES,
      { state: 'answered', dueAt: this.now() + this.timings.connectTimeoutMs + playMs + 10_000 },
      this.now(),
    );
    try {
      await live.media.answer(sdp);
      await live.media.connected(this.timings.connectTimeoutMs);
      await this.deps.report(job, 'answered', null);
      await live.media.play(packets, live.stop.signal);
    } catch (err) {
      const detail = err instanceof MediaError ? err.message : `media: ${(err as Error).message}`;
      await this.hangUp(live);
      await this.undeliver(job, CALL_STATES, 'media_failed', detail);
      return;
    }
    await this.hangUp(live);
    await this.complete(job);
  }

  private prompts(locale: string) {
    const dir = this.deps.promptsDir ?? PROMPTS_DIR;
    return loadPromptSet(this.languages.has(locale) ? locale : 'en', dir);
  }

  /** Ends the call on WhatsApp's side (its terminate webhook brings the duration). */
  private async hangUp(live: LiveCall): Promise<void> {
    live.stop.abort();
    if (live.callId) {
      const r = await this.deps.calling.terminate(live.callId);
      if (!r.ok) this.deps.logger.warn({ error: r.error }, 'WhatsApp call terminate failed');
    }
  }

  private async complete(job: CallJob): Promise<void> {
    const moved = await this.deps.jobs.move(
      job.id,
      CALL_STATES,
      { state: 'ended', outcome: 'completed', sealedCode: null, dueAt: null, answerSdp: null },
      this.now(),
    );
    await this.closeLive(job.id);
    if (moved) await this.deps.report(job, 'completed', null);
  }

  /** Ends a job that delivered nothing: the code erased, the request `undelivered` with the reason. */
  private async undeliver(
    job: CallJob,
    from: readonly CallJobState[],
    reason: CallUndeliveredReason,
    detail?: string,
  ): Promise<void> {
    const moved = await this.end(job, from, reason);
    if (!moved) return;
    await this.deps.report(job, 'failed', undeliveredError(reason, detail));
    const live = this.live.get(job.id);
    if (live) await this.hangUp(live);
    else if (job.callId && CALL_STATES.includes(job.state)) await this.deps.calling.terminate(job.callId);
    await this.closeLive(job.id);
    this.deps.logger.info({ requestId: job.verificationId, reason }, 'WhatsApp call undelivered');
  }

  private end(job: CallJob, from: readonly CallJobState[], outcome: string): Promise<boolean> {
    return this.deps.jobs.move(
      job.id,
      from,
      { state: 'ended', outcome, sealedCode: null, dueAt: null, answerSdp: null },
      this.now(),
    );
  }

  private async closeLive(id: string): Promise<void> {
    const live = this.live.get(id);
    if (!live) return;
    this.live.delete(id);
    live.stop.abort();
    await live.media.close().catch(() => {});
  }

  /** One pass of the worker: due jobs, codes to erase, old jobs to delete. */
  async runOnce(): Promise<void> {
    const { jobs } = this.deps;
    for (const job of await jobs.due(this.now(), 50)) {
      await this.serial(job.id, () => this.overdue(job));
    }
    for (const ended of await jobs.endSettled(this.now(), 100)) await this.closeLive(ended.id);
    // Old jobs go once a minute, not every pass.
    if (this.now() - this.sweptAt >= 60_000) {
      this.sweptAt = this.now();
      await jobs.sweep(this.now() - this.timings.retentionMs, 100);
    }
  }

  private async overdue(job: CallJob): Promise<void> {
    const { jobs } = this.deps;
    const expect = { dueAt: job.dueAt };
    switch (job.state) {
      case 'new':
      case 'starting':
        return this.start(job.id, job.dueAt);
      case 'awaiting_permission':
        return this.undeliver(job, ['awaiting_permission'], 'permission_not_answered');
      case 'placing':
      case 'calling':
        // Not answered in time (or its instance died while placing it).
        if (this.live.get(job.id)?.answering) return;
        if (!(await jobs.move(job.id, [job.state], { dueAt: this.now() }, this.now(), expect))) return;
        return this.undeliver(
          { ...job, dueAt: this.now() },
          [job.state],
          job.state === 'calling' ? 'no_answer' : 'call_failed',
        );
      case 'answered':
        if (this.live.has(job.id)) return;
        if (!(await jobs.move(job.id, ['answered'], { dueAt: this.now() }, this.now(), expect))) return;
        return this.undeliver(job, ['answered'], 'media_failed', 'the instance holding the call stopped');
      default:
        return;
    }
  }

  /** The holder's poll: answers stored by other instances, and calls others ended. */
  private async pollHeldOnce(): Promise<void> {
    const held = await this.deps.jobs.heldBy(this.deps.instanceId);
    const still = new Set(held.map((j) => j.id));
    for (const job of held) {
      const live = this.live.get(job.id);
      if (live && !live.answering && job.answerSdp) {
        const sdp = job.answerSdp;
        void this.serial(job.id, () => this.answer(job.id, sdp));
      }
    }
    for (const id of [...this.live.keys()]) {
      if (still.has(id)) continue;
      const live = this.live.get(id);
      // Ended by another instance (a rejection, a terminate): stop its media here.
      if (live && !live.answering) await this.closeLive(id);
    }
  }

  private pollHeld(): void {
    if (this.pollTimer || this.stopped) return;
    const loop = () => {
      this.pollTimer = null;
      if (this.live.size === 0 || this.stopped) return;
      void this.pollHeldOnce()
        .catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'WhatsApp call poll failed'))
        .finally(() => {
          if (!this.stopped && this.live.size > 0)
            this.pollTimer = setTimeout(loop, this.timings.holderPollMs).unref();
        });
    };
    this.pollTimer = setTimeout(loop, this.timings.holderPollMs).unref();
  }

  /** Starts the worker (due jobs every tickMs). */
  startWorker(): void {
    this.stopped = false;
    const loop = () => {
      void this.runOnce()
        .catch((err: Error) =>
          this.deps.logger.warn({ err: err.message }, 'WhatsApp call worker pass failed'),
        )
        .finally(() => {
          if (!this.stopped) this.tickTimer = setTimeout(loop, this.timings.tickMs).unref();
        });
    };
    this.tickTimer = setTimeout(loop, this.timings.tickMs).unref();
  }

  /** Stops the worker and ends the calls this process holds (their media cannot outlive it). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.pollTimer) clearTimeout(this.pollTimer);
    await Promise.allSettled([...this.busy.values()]);
    for (const [id, live] of [...this.live]) {
      await this.hangUp(live).catch(() => {});
      await this.closeLive(id);
    }
  }

  /** Calls whose media this process holds now (for tests and metrics). */
  get liveCalls(): number {
    return this.live.size;
  }
}

/** A limit's refusal as a sentence: which limit, and until when if WhatsApp said. */
function limitSentence(
  reason: 'call_limit' | 'permission_request_limit',
  limits: ReadonlyArray<{ period: string; maxAllowed: number; currentUsage: number; until: Date | null }>,
): string {
  const reached = limits.filter((l) => l.currentUsage >= l.maxAllowed);
  const parts = (reached.length > 0 ? reached : limits).map(
    (l) =>
      `${l.currentUsage}/${l.maxAllowed} in ${l.period}${l.until ? ` until ${l.until.toISOString()}` : ''}`,
  );
  const what = reason === 'call_limit' ? 'connected calls' : 'permission requests to this user';
  return `WhatsApp's limit on ${what} is reached${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}
