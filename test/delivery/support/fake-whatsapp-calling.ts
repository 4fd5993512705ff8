import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Heard, recognise } from '../../media/support/recognise.js';
import { UserPeer } from '../../media/support/user-peer.js';
import { metaSignature } from './signing.js';

/**
 * The WhatsApp Cloud API's calling endpoints on loopback, written from Meta's documentation of
 * business-initiated calling (docs/delivery.md, "WhatsApp calls"), with its users in memory:
 * call permissions and their limits, the permission request and the user's signed reply webhook,
 * calls answered by a real WebRTC peer (test/media/support/user-peer.ts) that hears the code, and
 * the signed `calls` webhooks (connect with the SDP answer, RINGING/ACCEPTED/REJECTED, terminate
 * with duration).
 */
export interface FakeUser {
  /** What the user does with a permission request. */
  onPermissionRequest: 'accept' | 'accept_permanent' | 'reject' | 'ignore';
  /** What the user does when the phone rings. */
  onCall: 'pick_up' | 'reject' | 'never';
  /** The customer-service window is open (the user wrote within 24 h). */
  windowOpen: boolean;
  /** The language the user's ear hears the code in (for the recogniser). */
  language: string;
  permission: { kind: 'none' | 'temporary' | 'permanent'; expiresAt: number | null };
  /** When permission requests were sent to the user (ms). */
  requests: number[];
}

export interface FakeCall {
  id: string;
  to: string;
  state: 'ringing' | 'connected' | 'ended';
  /** What the user heard, once the call has ended with audio. */
  heard: Promise<Heard | null>;
}

export interface FakeCalling {
  url: string;
  users: Map<string, FakeUser>;
  calls: Map<string, FakeCall>;
  /** Every webhook body sent, in order. */
  webhooks: unknown[];
  /** Requests received (method, path, JSON body). */
  received: Array<{ method: string; path: string; body: unknown }>;
  addUser(waId: string, user?: Partial<FakeUser>): FakeUser;
  /** Sends a webhook body as Meta would (`badSignature`: signed with another secret). */
  sendWebhook(body: unknown, badSignature?: boolean): Promise<number>;
  close(): Promise<void>;
}

export interface FakeCallingOptions {
  appSecret: string;
  /** Where the signed webhooks go (read at each send: a test may point it elsewhere later). */
  webhookUrl: string;
  phoneNumberId?: string;
  callingEnabled?: boolean;
  /** Connected calls a day on the business number (WhatsApp: 100). */
  callsPerDay?: number;
  /** How long an unanswered call rings before WhatsApp ends it. */
  ringMs?: number;
  /** The clock of permissions and limits (tests move it). */
  now?: () => number;
}

const DAY = 86_400_000;
/** Error codes of the limits: 138006 is documented with connect; the two limit codes are this fake's reading of Meta's troubleshooting list. */
const ERRORS = {
  windowClosed: { code: 131047, message: 'Re-engagement message' },
  noPermission: { code: 138006, message: 'No approved call permission from the recipient' },
  callLimit: { code: 138012, message: 'Business initiated calls limit reached' },
  requestLimit: { code: 138013, message: 'Call permission request limit reached' },
};

export async function startFakeCalling(options: FakeCallingOptions): Promise<FakeCalling> {
  const now = options.now ?? Date.now;
  const phoneNumberId = options.phoneNumberId ?? '106540352242922';
  const users = new Map<string, FakeUser>();
  const calls = new Map<string, FakeCall>();
  const peers = new Set<UserPeer>();
  const timers = new Set<NodeJS.Timeout>();
  const webhooks: unknown[] = [];
  const received: FakeCalling['received'] = [];
  const connectedCalls: number[] = [];
  let sequence = 0;

  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  async function sendWebhook(body: unknown, badSignature = false): Promise<number> {
    webhooks.push(body);
    const raw = JSON.stringify(body);
    const res = await fetch(options.webhookUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': metaSignature(badSignature ? `${options.appSecret}x` : options.appSecret, raw),
      },
      body: raw,
    }).catch(() => null);
    return res?.status ?? 0;
  }

  const envelope = (field: 'calls' | 'messages', value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '366634483210360',
        changes: [
          {
            field,
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...value,
            },
          },
        ],
      },
    ],
  });
  const seconds = () => String(Math.floor(now() / 1000));
  const status = (call: FakeCall, s: 'RINGING' | 'ACCEPTED' | 'REJECTED', tracking?: string) =>
    sendWebhook(
      envelope('calls', {
        statuses: [
          {
            id: call.id,
            timestamp: seconds(),
            type: 'call',
            status: s,
            recipient_id: call.to,
            ...(tracking ? { biz_opaque_callback_data: tracking } : {}),
          },
        ],
      }),
    );
  /** `connectedAt`: the fake clock's time and the wall clock's (durations are real, dates follow the clock). */
  const terminate = (
    call: FakeCall,
    s: 'COMPLETED' | 'FAILED',
    connectedAt: { clock: number; wall: number } | null,
  ) => {
    call.state = 'ended';
    const durationMs = connectedAt ? Date.now() - connectedAt.wall : 0;
    return sendWebhook(
      envelope('calls', {
        calls: [
          {
            id: call.id,
            to: call.to,
            from: '15550783881',
            event: 'terminate',
            direction: 'BUSINESS_INITIATED',
            timestamp: seconds(),
            status: s,
            ...(connectedAt !== null
              ? {
                  start_time: String(Math.floor(connectedAt.clock / 1000)),
                  end_time: String(Math.floor((connectedAt.clock + durationMs) / 1000)),
                  duration: Math.round(durationMs / 1000),
                }
              : {}),
          },
        ],
      }),
    );
  };

  const permissionOf = (user: FakeUser) => {
    const p = user.permission;
    if (p.kind === 'temporary' && p.expiresAt !== null && p.expiresAt <= now())
      return { kind: 'none' as const, expiresAt: null };
    return p;
  };
  const requestCounts = (user: FakeUser) => ({
    day: user.requests.filter((t) => t > now() - DAY).length,
    week: user.requests.filter((t) => t > now() - 7 * DAY).length,
  });
  const callsToday = () => connectedCalls.filter((t) => t > now() - DAY).length;

  function permissions(waId: string) {
    const user = users.get(waId);
    const permission = user ? permissionOf(user) : { kind: 'none' as const, expiresAt: null };
    const counts = user ? requestCounts(user) : { day: 0, week: 0 };
    const calls = callsToday();
    const max = options.callsPerDay ?? 100;
    return {
      messaging_product: 'whatsapp',
      permission: {
        status: permission.kind === 'none' ? 'no_permission' : permission.kind,
        ...(permission.expiresAt ? { expiration_time: Math.floor(permission.expiresAt / 1000) } : {}),
      },
      actions: [
        {
          action_name: 'send_call_permission_request',
          can_perform_action: permission.kind === 'none' && counts.day < 1 && counts.week < 2,
          limits: [
            { time_period: 'PT24H', max_allowed: 1, current_usage: counts.day },
            { time_period: 'P7D', max_allowed: 2, current_usage: counts.week },
          ],
        },
        {
          action_name: 'start_call',
          can_perform_action: permission.kind !== 'none' && calls < max,
          limits: [{ time_period: 'PT24H', max_allowed: max, current_usage: calls }],
        },
      ],
    };
  }

  function requestPermission(to: string, body: Record<string, unknown>) {
    const user = users.get(to);
    if (!user) return { status: 400, json: { error: { code: 131026, message: 'Message undeliverable' } } };
    const interactive = body.type === 'interactive';
    if (interactive && !user.windowOpen) return { status: 400, json: { error: ERRORS.windowClosed } };
    const counts = requestCounts(user);
    if (counts.day >= 1 || counts.week >= 2) return { status: 400, json: { error: ERRORS.requestLimit } };
    user.requests.push(now());
    const messageId = `wamid.cpr${++sequence}`;
    if (user.onPermissionRequest !== 'ignore') {
      const accept = user.onPermissionRequest !== 'reject';
      const permanent = user.onPermissionRequest === 'accept_permanent';
      later(50, () => {
        const expiresAt = permanent ? null : now() + 7 * DAY;
        if (accept) user.permission = { kind: permanent ? 'permanent' : 'temporary', expiresAt };
        void sendWebhook(
          envelope('messages', {
            contacts: [{ profile: { name: 'User' }, wa_id: to }],
            messages: [
              {
                context: { from: '15550783881', id: messageId },
                from: to,
                id: `wamid.reply${++sequence}`,
                timestamp: seconds(),
                type: 'interactive',
                interactive: {
                  type: 'call_permission_reply',
                  call_permission_reply: {
                    response: accept ? 'accept' : 'reject',
                    is_permanent: permanent,
                    ...(accept && expiresAt ? { expiration_timestamp: Math.floor(expiresAt / 1000) } : {}),
                    response_source: 'user_action',
                  },
                },
              },
            ],
          }),
        );
      });
    }
    return {
      status: 200,
      json: {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: messageId }],
      },
    };
  }

  function connect(body: Record<string, unknown>) {
    const to = String(body.to ?? '');
    const user = users.get(to);
    const sdp = (body.session as { sdp_type?: string; sdp?: string } | undefined) ?? {};
    if (sdp.sdp_type !== 'offer' || typeof sdp.sdp !== 'string' || !/^m=audio /m.test(sdp.sdp)) {
      return { status: 400, json: { error: { code: 100, message: 'Invalid parameter: session' } } };
    }
    if (!user || permissionOf(user).kind === 'none')
      return { status: 400, json: { error: ERRORS.noPermission } };
    if (callsToday() >= (options.callsPerDay ?? 100))
      return { status: 400, json: { error: ERRORS.callLimit } };
    const tracking =
      typeof body.biz_opaque_callback_data === 'string' ? body.biz_opaque_callback_data : undefined;
    let resolveHeard: (h: Heard | null) => void = () => {};
    const call: FakeCall = {
      id: `wacid.${++sequence}`,
      to,
      state: 'ringing',
      heard: new Promise((r) => (resolveHeard = r)),
    };
    calls.set(call.id, call);
    later(20, async () => {
      await status(call, 'RINGING', tracking);
      if (user.onCall === 'reject') {
        resolveHeard(null);
        await status(call, 'REJECTED', tracking);
        await terminate(call, 'FAILED', null);
        return;
      }
      if (user.onCall === 'never') {
        resolveHeard(null);
        later(
          options.ringMs ?? 30_000,
          () => void (call.state === 'ringing' && terminate(call, 'FAILED', null)),
        );
        return;
      }
      const peer = await UserPeer.answering(sdp.sdp as string);
      peers.add(peer);
      connectedCalls.push(now());
      const connectedAt = { clock: now(), wall: Date.now() };
      call.state = 'connected';
      ended.set(call.id, async () => {
        peers.delete(peer);
        const pcm = peer.packets > 0 ? peer.pcm() : null;
        await peer.close();
        resolveHeard(pcm ? recognise(pcm, user.language) : null);
        await terminate(call, 'COMPLETED', connectedAt);
      });
      await sendWebhook(
        envelope('calls', {
          calls: [
            {
              id: call.id,
              to,
              from: '15550783881',
              event: 'connect',
              direction: 'BUSINESS_INITIATED',
              timestamp: seconds(),
              session: { sdp_type: 'answer', sdp: peer.answer },
              ...(tracking ? { biz_opaque_callback_data: tracking } : {}),
            },
          ],
        }),
      );
      await status(call, 'ACCEPTED', tracking);
    });
    return { status: 200, json: { messaging_product: 'whatsapp', calls: [{ id: call.id }] } };
  }

  /** What ends a connected call when the business terminates it. */
  const ended = new Map<string, () => Promise<void>>();

  function callAction(body: Record<string, unknown>) {
    if (body.action === 'connect') return connect(body);
    if (body.action === 'terminate') {
      const call = calls.get(String(body.call_id ?? ''));
      if (!call) return { status: 400, json: { error: { code: 100, message: 'Invalid call_id' } } };
      const end = ended.get(call.id);
      ended.delete(call.id);
      if (end) later(0, () => void end());
      else if (call.state === 'ringing') later(0, () => void terminate(call, 'FAILED', null));
      return { status: 200, json: { success: true } };
    }
    return { status: 400, json: { error: { code: 100, message: 'Invalid parameter: action' } } };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      received.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const prefix = `/v23.0/${phoneNumberId}`;
      const path = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : null;
      let answer: { status: number; json: unknown };
      if (req.headers.authorization !== 'Bearer EAAGtoken' || path === null) {
        answer = { status: 401, json: { error: { code: 190, message: 'Invalid OAuth access token' } } };
      } else if (req.method === 'GET' && path === '/call_permissions') {
        answer = { status: 200, json: permissions(url.searchParams.get('user_wa_id') ?? '') };
      } else if (req.method === 'GET' && path === '/settings') {
        answer = {
          status: 200,
          json: {
            calling: {
              status: options.callingEnabled === false ? 'DISABLED' : 'ENABLED',
              call_icon_visibility: 'DEFAULT',
            },
          },
        };
      } else if (req.method === 'POST' && path === '/messages') {
        answer = requestPermission(String(body.to ?? ''), body);
      } else if (req.method === 'POST' && path === '/calls') {
        answer = callAction(body);
      } else {
        answer = { status: 404, json: { error: { code: 100, message: 'Unknown path' } } };
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    users,
    calls,
    webhooks,
    received,
    addUser(waId, user = {}) {
      const u: FakeUser = {
        onPermissionRequest: 'accept',
        onCall: 'pick_up',
        windowOpen: true,
        language: 'en',
        permission: { kind: 'none', expiresAt: null },
        requests: [],
        ...user,
      };
      users.set(waId, u);
      return u;
    },
    sendWebhook,
    async close() {
      for (const t of timers) clearTimeout(t);
      await Promise.all([...peers].map((p) => p.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
