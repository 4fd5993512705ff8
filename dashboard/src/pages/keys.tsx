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
  When,
} from '../components/ui';
import { relative } from '../format';
import { useAction, useLoad } from '../hooks';
import type { Scope } from '../types';
import { type ApiKey, CHANNELS, type Channel } from '../types';

function ChannelPicker(props: { value: Channel[]; onChange: (value: Channel[]) => void; name: string }) {
  return (
    <fieldset class="checks">
      <legend>{props.name}</legend>
      {CHANNELS.map((channel) => (
        <label key={channel} class="check">
          <input
            type="checkbox"
            checked={props.value.includes(channel)}
            onChange={(e) =>
              props.onChange(
                e.currentTarget.checked
                  ? [...props.value, channel]
                  : props.value.filter((c) => c !== channel),
              )
            }
          />
          {channel}
        </label>
      ))}
    </fieldset>
  );
}

export function KeysPage(props: { scope: Scope }) {
  const { account } = props.scope;
  const keys = useLoad(
    () =>
      get<{ data: ApiKey[] }>(`/v1/admin/api-keys${query({ accountId: account.id })}`).then((r) => r.data),
    [account.id],
  );
  const [name, setName] = useState('');
  const [channels, setChannels] = useState<Channel[]>(['EMAIL']);
  const [test, setTest] = useState(false);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [editing, setEditing] = useState<{ id: string; channels: Channel[] } | null>(null);
  const action = useAction();

  const create = (event: Event) => {
    event.preventDefault();
    action
      .run(async () => {
        const { data } = await post<{ data: ApiKey }>('/v1/admin/api-keys', {
          name: name.trim(),
          channels,
          accountId: account.id,
          test,
        });
        setSecret({ label: `Secret of “${data.name}”`, value: data.key ?? '' });
        setName('');
      })
      .then(keys.reload);
  };
  const revoke = (key: ApiKey) => {
    if (!window.confirm(`Revoke “${key.name}”? Calls with it are refused at once.`)) return;
    action.run(() => del(`/v1/admin/api-keys/${encodeURIComponent(key.id)}`)).then(keys.reload);
  };
  const rotate = (key: ApiKey) => {
    if (!window.confirm(`Rotate “${key.name}”? The current secret stops working.`)) return;
    action
      .run(async () => {
        const { data } = await post<{ data: ApiKey }>(
          `/v1/admin/api-keys/${encodeURIComponent(key.id)}/rotate`,
        );
        setSecret({ label: `New secret of “${data.name}”`, value: data.key ?? '' });
      })
      .then(keys.reload);
  };
  const saveChannels = () => {
    if (!editing) return;
    action
      .run(() =>
        patch(`/v1/admin/api-keys/${encodeURIComponent(editing.id)}`, { channels: editing.channels }),
      )
      .then((ok) => {
        if (ok) setEditing(null);
        keys.reload();
      });
  };

  const list = keys.data ?? [];
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys your back end uses to send and check codes for this account."
      />
      <Card title="Create a key">
        <form class="form-row" onSubmit={create}>
          <Field label="Name" hint="Where it is used, e.g. “web signup”.">
            <input
              name="name"
              required
              maxLength={100}
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </Field>
          <ChannelPicker name="Channels" value={channels} onChange={setChannels} />
          <label class="check">
            <input type="checkbox" checked={test} onChange={(e) => setTest(e.currentTarget.checked)} />
            Test key (codes go to the outbox only)
          </label>
          <button
            type="submit"
            class="primary"
            disabled={action.busy || !name.trim() || channels.length === 0}
          >
            Create key
          </button>
        </form>
        {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}
      </Card>
      <ErrorBox error={keys.error ?? action.error} />
      <Card title="Keys">
        {keys.loading && !keys.data ? (
          <Loading />
        ) : list.length === 0 ? (
          <Empty title="No keys yet">
            Create one above, then send a code with it: see the README's quick start.
          </Empty>
        ) : (
          <DataTable columns={['Name and id', 'Prefix', 'Channels', 'Created', 'Last used', 'State']} actions>
            {list.map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <td>
                  {key.name} {key.test && <Badge tone="info">test</Badge>}
                  <div>
                    <code class="muted" data-testid="key-id">
                      {key.id}
                    </code>
                  </div>
                </td>
                <td data-testid="key-prefix">
                  <code>{key.prefix}…</code>
                </td>
                <td>
                  {editing?.id === key.id ? (
                    <div class="inline-edit">
                      <ChannelPicker
                        name={`Channels of ${key.name}`}
                        value={editing.channels}
                        onChange={(value) => setEditing({ id: key.id, channels: value })}
                      />
                      <button
                        type="button"
                        class="primary"
                        onClick={saveChannels}
                        disabled={!editing.channels.length}
                      >
                        Save
                      </button>
                      <button type="button" onClick={() => setEditing(null)}>
                        Cancel
                      </button>
                    </div>
                  ) : (
                    key.channels.join(', ')
                  )}
                </td>
                <td>
                  <When iso={key.createdAt} />
                </td>
                <td title={key.lastUsedAt ?? undefined}>{relative(key.lastUsedAt)}</td>
                <td>
                  {key.revokedAt ? <Badge tone="bad">revoked</Badge> : <Badge tone="good">active</Badge>}
                </td>
                <td class="actions">
                  {!key.revokedAt && (
                    <>
                      <button
                        type="button"
                        aria-label={`Edit channels of ${key.name}`}
                        onClick={() => setEditing({ id: key.id, channels: key.channels })}
                      >
                        Channels
                      </button>
                      <button type="button" aria-label={`Rotate ${key.name}`} onClick={() => rotate(key)}>
                        Rotate
                      </button>
                      <button
                        type="button"
                        class="danger"
                        aria-label={`Revoke ${key.name}`}
                        onClick={() => revoke(key)}
                      >
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
    </>
  );
}
