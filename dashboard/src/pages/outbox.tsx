import { useEffect, useMemo, useState } from 'preact/hooks';
import { get, query } from '../api';
import {
  Badge,
  Card,
  Empty,
  ErrorBox,
  Field,
  Loading,
  PageHeader,
  Pager,
  statusTone,
  When,
} from '../components/ui';
import { useAutoRefresh, useLoad, usePages } from '../hooks';
import { methodLabel } from '../labels';
import { href, navigate } from '../router';
import type { OutboxList, Scope } from '../types';

/** Messages per page. */
const PAGE_SIZE = 20;
/** How often the list is read again while the tab is shown: a code just sent shows within it. */
const REFRESH_SECONDS = 5;
/** A request id (a UUID) as typed or pasted: anything else is a destination. */
const REQUEST_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The outbox, or with `requestId` (the route #/outbox/<id>) the message of that request alone, so
 * a request id from a log line, or the other half of a dual send, is one link away.
 */
export function OutboxPage(props: { scope: Scope; requestId?: string }) {
  const { account, mode } = props.scope;
  const { requestId } = props;
  const [text, setText] = useState(requestId ?? '');
  const [to, setTo] = useState('');
  const [auto, setAuto] = useState(true);
  // Following a link to a request shows its id in the box, as if it had been typed.
  useEffect(() => {
    if (requestId) setText(requestId);
  }, [requestId]);
  const pages = usePages([account.id, mode, to, requestId]);
  const messages = useLoad(
    () =>
      get<OutboxList>(
        `/v1/admin/outbox${query({
          accountId: account.id,
          mode,
          ...(requestId ? { requestId } : { to }),
          limit: PAGE_SIZE,
          cursor: pages.cursor,
        })}`,
      ),
    [account.id, mode, to, requestId, pages.cursor],
  );
  useAutoRefresh(messages.refresh, REFRESH_SECONDS * 1000, auto);
  // When the list shown was read (the time of its last answer).
  const updatedAt = useMemo(() => (messages.data ? new Date().toISOString() : undefined), [messages.data]);
  const list = messages.data?.data ?? [];

  const search = (event: Event) => {
    event.preventDefault();
    const value = text.trim();
    if (REQUEST_ID.test(value)) return navigate(`/outbox/${value.toLowerCase()}`);
    setTo(value);
    if (requestId) navigate('/outbox');
  };
  const clear = () => {
    setText('');
    setTo('');
    if (requestId) navigate('/outbox');
  };
  const filtered = Boolean(requestId || to);

  return (
    <>
      <PageHeader
        title="Outbox"
        description="Messages written by the outbox provider and by test keys: what recipients would receive."
        actions={
          <>
            <label class="check">
              <input type="checkbox" checked={auto} onChange={(e) => setAuto(e.currentTarget.checked)} />
              Refresh every {REFRESH_SECONDS} s
            </label>
            <button type="button" onClick={messages.reload}>
              Refresh
            </button>
          </>
        }
      />
      <form class="toolbar" aria-label="Search the outbox" onSubmit={search}>
        <Field
          label="Destination or request id"
          class="grow"
          hint="An exact email address or + number, or the request id a send answered."
        >
          <input
            type="search"
            name="q"
            value={text}
            placeholder="alice@example.com, +4479… or 0190…"
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary">
          Search
        </button>
        {filtered && (
          <button type="button" onClick={clear}>
            Clear
          </button>
        )}
      </form>
      <ErrorBox error={messages.error} />
      {updatedAt && (
        <p class="muted updated" data-testid="outbox-updated">
          {requestId ? (
            <>
              The message of request <code>{requestId}</code>.{' '}
            </>
          ) : null}
          Updated <When iso={updatedAt} />
          {auto ? '; refreshed while this tab is shown.' : '.'}
        </p>
      )}
      {messages.loading && !messages.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Card>
          {requestId ? (
            <Empty title={`No ${mode} message for this request`}>
              The outbox of {account.name} holds no {mode} message of request {requestId}: a provider
              delivered it, it belongs to another account or mode, or the retention period deleted it.
            </Empty>
          ) : (
            <Empty title={to ? `No ${mode} message to ${to}` : `No ${mode} message in the outbox`}>
              Messages appear here when a test key sends a code (Test), or when a channel's provider is the
              outbox (Live, the default without provider credentials). Switch between Live and Test to see the
              other.
            </Empty>
          )}
        </Card>
      ) : (
        <>
          <ul class="messages" aria-label="Messages">
            {list.map((m) => (
              <li key={m.id} class="card message" data-testid="outbox-message" data-request-id={m.requestId}>
                <div class="message-head">
                  <Badge tone="info">{m.channel}</Badge>
                  <strong>{m.to}</strong>
                  <span data-testid="message-status">
                    <Badge tone={statusTone(m.status)}>{m.status}</Badge>
                  </span>
                  <When class="muted message-time" iso={m.createdAt} />
                </div>
                <p class="message-request muted">
                  Request <code data-testid="message-request-id">{m.requestId}</code>
                </p>
                {m.verifiedAt && (
                  <p class="message-request" data-testid="message-verified">
                    Verified by {methodLabel(m.method ?? 'code')} <When iso={m.verifiedAt} />
                  </p>
                )}
                {m.siblingRequestId && (
                  <p class="message-request muted" data-testid="message-pair">
                    Dual send: the other message is request{' '}
                    <a href={href(`/outbox/${m.siblingRequestId}`)}>
                      <code>{m.siblingRequestId}</code>
                    </a>
                  </p>
                )}
                {m.subject && <p class="message-subject">{m.subject}</p>}
                <pre class="message-text">{m.text}</pre>
              </li>
            ))}
          </ul>
          <Pager
            label="Outbox pages"
            number={pages.number}
            nextCursor={messages.data?.nextCursor}
            onNewer={pages.newer}
            onOlder={pages.older}
            busy={messages.loading}
          />
        </>
      )}
    </>
  );
}
