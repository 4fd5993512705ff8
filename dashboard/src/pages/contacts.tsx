import { useState } from 'preact/hooks';
import { get, post, query } from '../api';
import {
  Badge,
  Card,
  DataTable,
  Empty,
  ErrorBox,
  Field,
  Loading,
  PageHeader,
  Pager,
  statusTone,
  When,
} from '../components/ui';
import { dateTime, integer, relative } from '../format';
import { useAction, useLoad, usePages } from '../hooks';
import { methodLabel } from '../labels';
import { href } from '../router';
import type { ContactList, ContactProfile, Risk, Scope } from '../types';

/** Contacts per page of the list without a search. */
const PAGE_SIZE = 25;

export function ContactsPage(props: { scope: Scope }) {
  const { account, mode } = props.scope;
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const pages = usePages([account.id, mode, q]);
  // Without a search: the contacts most recently seen, a page at a time; with one: its matches.
  const results = useLoad(
    () =>
      get<ContactList>(
        `/v1/admin/contacts${query({ accountId: account.id, mode, q, limit: q ? 50 : PAGE_SIZE, cursor: pages.cursor })}`,
      ),
    [account.id, mode, q, pages.cursor],
  );
  const list = results.data?.data ?? [];
  const clear = () => {
    setText('');
    setQ('');
  };
  return (
    <>
      <PageHeader
        title="Contacts"
        description="Every destination this account sent a code to, with its history and risk."
      />
      <form
        class="toolbar"
        aria-label="Search contacts"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(text.trim());
        }}
      >
        <Field
          label="Destination"
          class="grow"
          hint="An email address or a phone number in + form, or the start of one."
        >
          <input
            type="search"
            name="q"
            value={text}
            placeholder="alice@example.com or +4479…"
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary">
          Search
        </button>
        {q && (
          <button type="button" onClick={clear}>
            Clear
          </button>
        )}
      </form>
      <ErrorBox error={results.error} />
      {results.loading && !results.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Card>
          {q ? (
            <Empty title="No contact matches">
              Nothing was sent to “{q}” in {mode} mode for this account. Check the spelling, or switch between
              Live and Test.
            </Empty>
          ) : (
            <Empty title={`No ${mode} contact yet`}>
              A contact appears here after the first code sent to it in {mode} mode for this account.
            </Empty>
          )}
        </Card>
      ) : (
        <Card title={q ? `Contacts starting with “${q}”` : 'Recently seen'}>
          <DataTable columns={['Destination', 'Channel', 'Sends', 'Verified', 'Risk', 'Last seen', 'State']}>
            {list.map((c) => (
              <tr key={c.id} data-contact={c.destination}>
                <td>
                  <a href={href(`/contacts/${encodeURIComponent(c.id)}`)}>{c.destination}</a>
                </td>
                <td>{c.channel}</td>
                <td>{integer(c.counts.sends)}</td>
                <td>{integer(c.counts.verified)}</td>
                <td>{c.risk ? <RiskBadge risk={c.risk} /> : '—'}</td>
                <td class="date">
                  <When iso={c.lastSeen} />
                </td>
                <td>{c.blocked ? <Badge tone="bad">blocked</Badge> : <Badge tone="good">active</Badge>}</td>
              </tr>
            ))}
          </DataTable>
          {!q && (
            <Pager
              label="Contact pages"
              number={pages.number}
              nextCursor={results.data?.nextCursor}
              onNewer={pages.newer}
              onOlder={pages.older}
              busy={results.loading}
            />
          )}
        </Card>
      )}
    </>
  );
}

/**
 * What carrier lookups know of a phone contact's number (docs/lookup.md): the lookups' cache as it
 * is now, so the SIM change shows only while it is fresh (an hour by default).
 */
function CarrierCard(props: { lookup: NonNullable<ContactProfile['lookup']> }) {
  const l = props.lookup;
  const simWindow = l.simChangedWithin;
  const sim = l.lastSimChange ? (
    <>
      {dateTime(l.lastSimChange)} <span class="muted">({relative(l.lastSimChange)})</span>
    </>
  ) : simWindow ? (
    simWindow.changed ? (
      `changed within the ${simWindow.hours} h before ${dateTime(simWindow.checkedAt)} (the carrier gives no date)`
    ) : (
      `no change in the ${simWindow.hours} h before ${dateTime(simWindow.checkedAt)}`
    )
  ) : l.simCheckedAt ? (
    'no change known'
  ) : (
    <span class="muted">not looked up (the account sets no simSwapHours, or the provider cannot tell)</span>
  );
  return (
    <Card title="Carrier">
      <dl class="facts" data-testid="carrier">
        <dt>Line type</dt>
        <dd data-testid="line-type">{l.lineType ?? 'unknown'}</dd>
        <dt>Carrier</dt>
        <dd data-testid="carrier-name">
          {l.carrier ?? 'unknown'}
          {l.country && <span class="muted"> · {l.country}</span>}
          {l.mcc && l.mnc && (
            <span class="muted">
              {' '}
              · MCC {l.mcc} MNC {l.mnc}
            </span>
          )}
        </dd>
        <dt>Last SIM change</dt>
        <dd data-testid="sim-change">{sim}</dd>
        <dt>Looked up</dt>
        <dd class="muted">
          {l.lineCheckedAt ? dateTime(l.lineCheckedAt) : '—'}
          {l.simCheckedAt && l.simCheckedAt !== l.lineCheckedAt && ` (SIM: ${dateTime(l.simCheckedAt)})`}
        </dd>
      </dl>
    </Card>
  );
}

function RiskBadge(props: { risk: Risk }) {
  return (
    <Badge tone={statusTone(props.risk.level)}>
      {props.risk.score} · {props.risk.level}
    </Badge>
  );
}

export function ContactPage(props: { id: string; scope: Scope }) {
  const profile = useLoad(
    () =>
      get<{ data: ContactProfile }>(`/v1/admin/contacts/${encodeURIComponent(props.id)}`).then((r) => r.data),
    [props.id],
  );
  const [reason, setReason] = useState('');
  const action = useAction();
  const c = profile.data;
  if (profile.error) return <ErrorBox error={profile.error} />;
  if (!c) return <Loading />;
  if (c.accountId !== props.scope.account.id || c.mode !== props.scope.mode)
    return <OtherScope contact={c} scope={props.scope} />;
  // The contact keeps the assessment of its latest send; older data may only have it per request.
  const risk = c.risk ?? c.history[0]?.risk ?? null;
  const block = (event: Event) => {
    event.preventDefault();
    action
      .run(() => post(`/v1/admin/contacts/${encodeURIComponent(c.id)}/block`, { reason: reason.trim() }))
      .then((ok) => {
        if (ok) setReason('');
        profile.reload();
      });
  };
  const unblock = () =>
    action.run(() => post(`/v1/admin/contacts/${encodeURIComponent(c.id)}/unblock`)).then(profile.reload);
  return (
    <>
      <p class="breadcrumb">
        <a href={href('/contacts')}>← Contacts</a>
      </p>
      <PageHeader
        title={c.destination}
        description={`${c.channel} · ${c.mode} · first seen ${dateTime(c.firstSeen)} · last seen ${dateTime(c.lastSeen)}`}
        actions={c.blocked ? <Badge tone="bad">blocked</Badge> : <Badge tone="good">active</Badge>}
      />
      <div class="kpis">
        <div class="kpi">
          <span class="kpi-name">Sends</span>
          <span class="kpi-value">{integer(c.counts.sends)}</span>
        </div>
        <div class="kpi">
          <span class="kpi-name">Verified</span>
          <span class="kpi-value">{integer(c.counts.verified)}</span>
        </div>
        <div class="kpi">
          <span class="kpi-name">Failed</span>
          <span class="kpi-value">{integer(c.counts.failed)}</span>
        </div>
        <div class="kpi">
          <span class="kpi-name">Wrong codes</span>
          <span class="kpi-value">{integer(c.counts.wrongCodes)}</span>
        </div>
      </div>
      {c.lookup && <CarrierCard lookup={c.lookup} />}
      {c.addressesSeen.some((a) => a !== c.destination) && (
        <Card title="Addresses seen">
          <p class="muted">
            One mailbox, written these ways in its requests; codes went to each as written, and a block and
            the limits hold for all of them.
          </p>
          <ul data-testid="addresses-seen">
            {c.addressesSeen.map((a) => (
              <li key={a}>
                <code>{a}</code>
              </li>
            ))}
          </ul>
        </Card>
      )}
      <div class="grid-2">
        <Card title="Risk">
          {risk ? (
            <>
              <p class="risk-score" data-testid="risk-score">
                <span class="kpi-value">{risk.score}</span> <RiskBadge risk={risk} />
              </p>
              {risk.signals.length === 0 ? (
                <p class="muted">No risk signal fired on the latest send.</p>
              ) : (
                <ul class="signals">
                  {risk.signals.map((s) => (
                    <li key={s.name}>
                      <strong>{s.name}</strong> <Badge>+{s.weight}</Badge>
                      <span class="muted"> {s.detail}</span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <p class="muted">No risk assessment stored yet: it is computed on each send.</p>
          )}
        </Card>
        <Card title={c.blocked ? 'Blocked' : 'Block this contact'}>
          <ErrorBox error={action.error} />
          {c.blocked ? (
            <>
              <p>
                Sends to this destination, in any of its forms, are refused with{' '}
                <code>403 CONTACT_BLOCKED</code> since <When iso={c.blockedAt} />.
              </p>
              <p>
                Reason: <span class="quote">{c.blockedReason}</span>
              </p>
              <button type="button" onClick={unblock} disabled={action.busy}>
                Unblock
              </button>
            </>
          ) : (
            <form onSubmit={block} class="stack">
              <Field label="Reason" hint="Kept with the block and shown here; up to 500 characters.">
                <input
                  name="reason"
                  required
                  maxLength={500}
                  value={reason}
                  onInput={(e) => setReason(e.currentTarget.value)}
                />
              </Field>
              <button type="submit" class="danger" disabled={action.busy || !reason.trim()}>
                Block
              </button>
            </form>
          )}
        </Card>
      </div>
      <Card title="History">
        {c.history.length === 0 ? (
          <Empty title="No verification requests kept">
            Requests older than the retention period are deleted.
          </Empty>
        ) : (
          <ol class="timeline" aria-label="History">
            {c.history.map((h) => (
              <li key={h.requestId} class="timeline-item">
                <div class="timeline-head">
                  <Badge tone={statusTone(h.status)}>{h.status}</Badge>
                  <span>{h.channel}</span>
                  {h.link && (
                    <span data-testid="history-link" title="The email carried a magic link beside the code">
                      <Badge tone="info">magic link</Badge>
                    </span>
                  )}
                  <When iso={h.createdAt} />
                </div>
                <dl class="facts">
                  <dt>Sent to</dt>
                  <dd data-testid="history-address">{h.address}</dd>
                  <dt>Purpose</dt>
                  <dd data-testid="history-purpose">{h.purpose ?? '—'}</dd>
                  <dt>Delivery</dt>
                  <dd data-testid="history-delivery">
                    {deliveryLabel(h.deliveryStatus)}
                    {h.provider ? ` via ${h.provider}` : ''}
                    {h.deliveryError ? ` (${h.deliveryError})` : ''}
                  </dd>
                  <dt>Verified</dt>
                  <dd data-testid="history-verified">
                    <When iso={h.verifiedAt} />
                    {h.method ? ` by ${methodLabel(h.method)}` : ''}
                  </dd>
                  <dt>Risk</dt>
                  <dd>{h.risk ? <RiskBadge risk={h.risk} /> : '—'}</dd>
                  <dt>Request</dt>
                  <dd>
                    <code>{h.requestId}</code>
                  </dd>
                </dl>
              </li>
            ))}
          </ol>
        )}
      </Card>
    </>
  );
}

const modeName = (mode: string) => (mode === 'test' ? 'Test' : 'Live');

/**
 * A contact opened under another account or mode than the one chosen at the top (a link, or a
 * choice made in another tab): nothing of it to act on until the operator takes its scope, so
 * that Block never lands on a contact the page's header does not name.
 */
function OtherScope(props: { contact: ContactProfile; scope: Scope }) {
  const { contact, scope } = props;
  const owner = scope.accounts.find((a) => a.id === contact.accountId)?.name ?? contact.accountId;
  return (
    <>
      <p class="breadcrumb">
        <a href={href('/contacts')}>← Contacts</a>
      </p>
      <PageHeader title="A contact of another account or mode" />
      <div class="alert warning" role="alert">
        <p>
          This contact belongs to <strong>{owner}</strong> in {contact.mode} mode, not to{' '}
          <strong>{scope.account.name}</strong> in {scope.mode} mode chosen above.
        </p>
        <button type="button" onClick={() => scope.adopt(contact.accountId, contact.mode)}>
          Show it under {owner} · {modeName(contact.mode)}
        </button>
      </div>
    </>
  );
}

/**
 * A delivery state as the API's resource names it (the store's `failed` is `undelivered`); a
 * WhatsApp call shows each of its states: awaiting_permission, calling, answered, completed.
 */
const deliveryLabel = (status: string | null | undefined): string =>
  status === 'failed' ? 'undelivered' : status ? status.replaceAll('_', ' ') : '—';
