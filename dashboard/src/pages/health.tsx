import { get } from '../api';
import { Badge, Card, ErrorBox, Loading, PageHeader, statusTone, When } from '../components/ui';
import { duration } from '../format';
import { useLoad } from '../hooks';
import { serviceLabel } from '../labels';
import type { Breaker, Health } from '../types';

export function HealthPage() {
  const health = useLoad(() => get<Health>('/health'), []);
  // /health counts tripped breakers per country and names no account: the admin API says which.
  const breakers = useLoad(
    () => get<{ data: Breaker[] }>('/v1/admin/breakers').then((r) => r.data.filter((b) => b.tripped)),
    [],
  );
  const reload = () => {
    health.reload();
    breakers.reload();
  };
  const h = health.data;
  return (
    <>
      <PageHeader
        title="Health"
        description="What GET /health answers: the database, the rate-limit store, the carrier lookup provider, each channel's providers and what becomes of its live codes."
        actions={
          <button type="button" onClick={reload}>
            Refresh
          </button>
        }
      />
      <ErrorBox error={health.error ?? breakers.error} />
      {!h ? (
        <Loading />
      ) : (
        <>
          <div class="kpis">
            <div class="kpi">
              <span class="kpi-name">Status</span>
              <span class="kpi-value">
                <Badge tone={statusTone(h.status)}>{h.status}</Badge>
              </span>
            </div>
            <div class="kpi">
              <span class="kpi-name">Version</span>
              <span class="kpi-value">{h.version}</span>
            </div>
            <div class="kpi">
              <span class="kpi-name">Uptime</span>
              <span class="kpi-value">{duration(h.uptimeSeconds)}</span>
            </div>
          </div>
          <div class="grid-2">
            <Card title="Services">
              <ul class="plain">
                {Object.entries(h.services).map(([name, state]) => (
                  <li key={name} data-service={name}>
                    <Badge tone={statusTone(state)}>{state}</Badge> {serviceLabel(name)}
                  </li>
                ))}
                {h.lookups ? (
                  <li data-service="lookups">
                    <Badge tone={statusTone(h.lookups.state)}>{h.lookups.state}</Badge> Carrier lookups{' '}
                    <span class="muted">({h.lookups.name}, on this instance)</span>
                  </li>
                ) : null}
              </ul>
            </Card>
            <Card title="Channels">
              <ul class="plain">
                {Object.entries(h.channels).map(([name, channel]) => (
                  <li key={name}>
                    <ChannelState channel={channel} /> <strong>{name}</strong>{' '}
                    <span class="muted">
                      {channel.providers.map((p) => `${p.name} (${p.state})`).join(', ') || 'no provider'}
                    </span>
                    {channel.note ? <div class="field-hint">{channel.note}</div> : null}
                  </li>
                ))}
              </ul>
            </Card>
          </div>
          <Card title="Tripped SMS-pumping breakers">
            {!breakers.data ? (
              <Loading />
            ) : breakers.data.length === 0 ? (
              <p class="muted">None.</p>
            ) : (
              <ul class="plain">
                {breakers.data.map((b) => (
                  <li key={`${b.accountId}-${b.mode}-${b.country}`}>
                    <Badge tone="bad">{b.country}</Badge> {b.accountId} ({b.mode}) since{' '}
                    <When iso={b.trippedAt} />
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
    </>
  );
}

type ChannelHealth = Health['channels'][string];

/**
 * A channel's state for live traffic: a channel whose live codes only reach the outbox is never
 * shown as plainly operational, since nothing reaches the recipient.
 */
function ChannelState(props: { channel: ChannelHealth }) {
  const { operational, liveCodes } = props.channel;
  if (liveCodes === 'refused') return <Badge tone="bad">unavailable</Badge>;
  if (!operational) return <Badge tone="bad">down</Badge>;
  if (liveCodes === 'outbox') return <Badge tone="warn">not delivered</Badge>;
  return <Badge tone="good">operational</Badge>;
}
