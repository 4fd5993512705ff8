import { useState } from 'preact/hooks';
import { del, get, patch, post, query } from '../api';
import {
  Badge,
  Card,
  DataTable,
  Empty,
  ErrorBox,
  Field,
  Loading,
  PageHeader,
  SecretOnce,
  statusTone,
  When,
} from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { href, navigate } from '../router';
import type { Scope } from '../types';
import { type Delivery, WEBHOOK_EVENTS, type Webhook } from '../types';

export function WebhooksPage(props: { scope: Scope }) {
  const { account } = props.scope;
  const hooks = useLoad(
    () =>
      get<{ data: Webhook[] }>(`/v1/admin/webhooks${query({ accountId: account.id })}`).then((r) => r.data),
    [account.id],
  );
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>(['verification.verified']);
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    action
      .run(async () => {
        const { data } = await post<{ data: Webhook }>('/v1/admin/webhooks', {
          url: url.trim(),
          events,
          accountId: account.id,
        });
        setSecret(data.secret ?? null);
        setUrl('');
      })
      .then(hooks.reload);
  };
  const remove = (hook: Webhook) => {
    if (!window.confirm(`Delete the endpoint ${hook.url}?`)) return;
    action.run(() => del(`/v1/admin/webhooks/${encodeURIComponent(hook.id)}`)).then(hooks.reload);
  };
  const toggle = (hook: Webhook) =>
    action
      .run(() => patch(`/v1/admin/webhooks/${encodeURIComponent(hook.id)}`, { enabled: !hook.enabled }))
      .then(hooks.reload);
  const list = hooks.data ?? [];
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive signed events (Standard Webhooks) for this account."
      />
      <Card title="Add an endpoint">
        <form class="stack" onSubmit={create}>
          <Field label="URL" hint="HTTPS in production; the body is signed with the secret shown once below.">
            <input
              type="url"
              name="url"
              required
              placeholder="https://example.com/hooks/verify"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
            />
          </Field>
          <fieldset class="checks">
            <legend>Events</legend>
            {WEBHOOK_EVENTS.map((name) => (
              <label key={name} class="check">
                <input
                  type="checkbox"
                  checked={events.includes(name)}
                  onChange={(e) =>
                    setEvents(e.currentTarget.checked ? [...events, name] : events.filter((x) => x !== name))
                  }
                />
                {name}
              </label>
            ))}
          </fieldset>
          <div>
            <button
              type="submit"
              class="primary"
              disabled={action.busy || !url.trim() || events.length === 0}
            >
              Add endpoint
            </button>
          </div>
        </form>
        {secret && <SecretOnce label="Signing secret" secret={secret} onDone={() => setSecret(null)} />}
      </Card>
      <ErrorBox error={hooks.error ?? action.error} />
      <Card title="Endpoints">
        {hooks.loading && !hooks.data ? (
          <Loading />
        ) : list.length === 0 ? (
          <Empty title="No endpoint yet">
            Add one above to be told when a contact verifies, fails or is blocked.
          </Empty>
        ) : (
          <DataTable columns={['URL', 'Events', 'State', 'Created']} actions>
            {list.map((hook) => (
              <tr key={hook.id}>
                <td class="break">
                  <a href={href(`/webhooks/${encodeURIComponent(hook.id)}`)}>{hook.url}</a>
                </td>
                <td>{hook.events.length === WEBHOOK_EVENTS.length ? 'all' : hook.events.join(', ')}</td>
                <td>
                  {hook.enabled ? <Badge tone="good">enabled</Badge> : <Badge tone="warn">disabled</Badge>}
                  {hook.failingSince && (
                    <Badge tone="bad">
                      failing since <When iso={hook.failingSince} />
                    </Badge>
                  )}
                </td>
                <td>
                  <When iso={hook.createdAt} />
                </td>
                <td class="actions">
                  <button
                    type="button"
                    aria-label={`${hook.enabled ? 'Disable' : 'Enable'} ${hook.url}`}
                    onClick={() => toggle(hook)}
                  >
                    {hook.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Delete ${hook.url}`}
                    onClick={() => remove(hook)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
    </>
  );
}

export function WebhookPage(props: { id: string; scope: Scope }) {
  const id = encodeURIComponent(props.id);
  const hook = useLoad(() => get<{ data: Webhook }>(`/v1/admin/webhooks/${id}`).then((r) => r.data), [id]);
  const deliveries = useLoad(
    () => get<{ data: Delivery[] }>(`/v1/admin/webhooks/${id}/deliveries?limit=100`).then((r) => r.data),
    [id],
  );
  const action = useAction();
  const replay = (d: Delivery) =>
    action
      .run(() => post(`/v1/admin/webhooks/${id}/deliveries/${encodeURIComponent(d.id)}/replay`))
      .then(deliveries.reload);
  if (hook.error) return <ErrorBox error={hook.error} />;
  if (!hook.data) return <Loading />;
  const list = deliveries.data ?? [];
  return (
    <>
      <p class="breadcrumb">
        <a href={href('/webhooks')}>← Webhooks</a>
      </p>
      <PageHeader
        title={hook.data.url}
        description={`Events: ${hook.data.events.join(', ')}`}
        actions={
          <button type="button" onClick={deliveries.reload}>
            Refresh
          </button>
        }
      />
      {hook.data.disabledReason && <p class="alert warning">Disabled: {hook.data.disabledReason}</p>}
      <ErrorBox error={deliveries.error ?? action.error} />
      <Card title="Deliveries">
        {list.length === 0 ? (
          <Empty title="No delivery yet">
            Deliveries appear once a subscribed event happens in this account.
          </Empty>
        ) : (
          <DataTable
            columns={['Event', 'Status', 'Attempts', 'Answer', 'Last attempt', 'Next attempt']}
            actions
          >
            {list.map((d) => (
              <tr key={d.id}>
                <td>{d.eventType}</td>
                <td>
                  <Badge tone={statusTone(d.status)}>{d.status}</Badge>
                </td>
                <td>{d.attempts}</td>
                <td class="break">{d.responseStatus ?? d.lastError ?? '—'}</td>
                <td>
                  <When iso={d.lastAttemptAt} />
                </td>
                <td>
                  <When iso={d.nextAttemptAt} />
                </td>
                <td class="actions">
                  <button type="button" aria-label={`Replay delivery ${d.id}`} onClick={() => replay(d)}>
                    Replay
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
      <button type="button" class="ghost" onClick={() => navigate('/webhooks')}>
        Back to endpoints
      </button>
    </>
  );
}
