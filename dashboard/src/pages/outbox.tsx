import { useState } from 'preact/hooks';
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
} from '../components/ui';
import { dateTime } from '../format';
import { useLoad, usePages } from '../hooks';
import type { OutboxList, Scope } from '../types';

/** Messages per page. */
const PAGE_SIZE = 20;

export function OutboxPage(props: { scope: Scope }) {
  const { account, mode } = props.scope;
  const [text, setText] = useState('');
  const [to, setTo] = useState('');
  const pages = usePages([account.id, mode, to]);
  const messages = useLoad(
    () =>
      get<OutboxList>(
        `/v1/admin/outbox${query({ accountId: account.id, mode, to, limit: PAGE_SIZE, cursor: pages.cursor })}`,
      ),
    [account.id, mode, to, pages.cursor],
  );
  const list = messages.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Outbox"
        description="Messages written by the outbox provider and by test keys: what recipients would receive."
        actions={
          <button type="button" onClick={messages.reload}>
            Refresh
          </button>
        }
      />
      <form
        class="toolbar"
        aria-label="Filter by destination"
        onSubmit={(e) => {
          e.preventDefault();
          setTo(text.trim());
        }}
      >
        <Field label="Destination" class="grow">
          <input
            type="search"
            name="to"
            value={text}
            placeholder="Exact email address or + number"
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary">
          Filter
        </button>
        {to && (
          <button
            type="button"
            onClick={() => {
              setText('');
              setTo('');
            }}
          >
            Clear
          </button>
        )}
      </form>
      <ErrorBox error={messages.error} />
      {messages.loading && !messages.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Card>
          <Empty title={to ? `No ${mode} message to ${to}` : `No ${mode} message in the outbox`}>
            Messages appear here when a test key sends a code (Test), or when a channel's provider is the
            outbox (Live, the default without provider credentials). Switch between Live and Test to see the
            other.
          </Empty>
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
                  <time class="muted message-time" dateTime={m.createdAt}>
                    {dateTime(m.createdAt)}
                  </time>
                </div>
                <p class="message-request muted">
                  Request <code data-testid="message-request-id">{m.requestId}</code>
                </p>
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
