import { useState } from 'preact/hooks';
import { get, query } from '../api';
import type { Scope } from '../app';
import { Badge, Card, Empty, ErrorBox, Field, Loading, PageHeader } from '../components/ui';
import { dateTime } from '../format';
import { useLoad } from '../hooks';
import type { OutboxMessage } from '../types';

export function OutboxPage(props: { scope: Scope }) {
  const { account } = props.scope;
  const [text, setText] = useState('');
  const [to, setTo] = useState('');
  const messages = useLoad(
    () =>
      get<{ data: OutboxMessage[] }>(
        `/v1/admin/outbox${query({ accountId: account.id, to, limit: 100 })}`,
      ).then((r) => r.data),
    [account.id, to],
  );
  const list = messages.data ?? [];
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
          <Empty title={to ? `No message to ${to}` : 'The outbox is empty'}>
            Messages appear here when a test key sends a code, or when a channel's provider is the outbox (the
            default without provider credentials).
          </Empty>
        </Card>
      ) : (
        <ul class="messages" aria-label="Messages">
          {list.map((m) => (
            <li key={m.id} class="card message" data-testid="outbox-message">
              <div class="message-head">
                <Badge tone="info">{m.channel}</Badge>
                <strong>{m.to}</strong>
                <time class="muted" dateTime={m.createdAt}>
                  {dateTime(m.createdAt)}
                </time>
              </div>
              {m.subject && <p class="message-subject">{m.subject}</p>}
              <pre class="message-text">{m.text}</pre>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
