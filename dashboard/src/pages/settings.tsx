import { useState } from 'preact/hooks';
import { get, patch, post } from '../api';
import { Badge, Card, DataTable, ErrorBox, Field, Loading, Notice, PageHeader } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { LOCALE_OPTIONS } from '../locales';
import type {
  Account,
  AccountLimits,
  AccountSettings,
  LimitInForce,
  MessageSettingInForce,
  Scope,
  SettingSource,
} from '../types';

/** The message settings: the default locale and the SMS one-tap lines. */
type MessageKey = 'locale' | 'webOtpHost' | 'appHash';
const MESSAGE_KEYS: MessageKey[] = ['locale', 'webOtpHost', 'appHash'];
const MESSAGE_LABELS: Record<MessageKey, { label: string; placeholder: string }> = {
  locale: { label: 'Default language', placeholder: '' },
  webOtpHost: { label: 'WebOTP host (one-tap in browsers)', placeholder: 'login.example.com' },
  appHash: { label: 'Android app hash (SMS Retriever)', placeholder: 'FA+9qCX9VSu' },
};

/** Number intelligence's settings (lookups, SILENT): not numbers, and listed apart by the service. */
type NumberIntelligenceKey = AccountLimits['numberIntelligence'][number]['name'];
type NumericKey = Exclude<
  keyof AccountSettings,
  'allowedCountries' | 'branding' | NumberIntelligenceKey | MessageKey
>;

/** How the page names each setting; what it means, its bounds and its value come from the service. */
const LABELS: Record<NumericKey, { label: string; step?: string }> = {
  codeLength: { label: 'Code length' },
  codeTtlSeconds: { label: 'Code lifetime (s)' },
  maxAttempts: { label: 'Attempts per code' },
  resendCooldownSeconds: { label: 'Resend cooldown (s)' },
  sendsPerDestinationPerHour: { label: 'Sends per destination per hour' },
  failuresPerDestinationPerDay: { label: 'Wrong codes per destination per day' },
  keySendPerSecond: { label: 'Sends per key per second' },
  keyVerifyPerSecond: { label: 'Checks per key per second' },
  countrySendsPerHour: { label: 'SMS/WhatsApp sends per country per hour' },
  riskThreshold: { label: 'Risk threshold' },
  pumpingMinSends: { label: 'Pumping breaker: minimum sends' },
  pumpingMinConversion: { label: 'Pumping breaker: minimum conversion', step: '0.01' },
};
const NUMERIC = Object.keys(LABELS) as NumericKey[];

const toText = (value: number | undefined) => (value === undefined ? '' : String(value));
const shown = (value: number | null) => (value === null ? 'off' : String(value));
const countryList = (value: string[] | null) => (value === null ? 'every country' : value.join(', '));

/** Where a value in force comes from, in the operator's words. */
function SourceBadge(props: { source: SettingSource; env?: string | null }) {
  if (props.source === 'account') return <Badge tone="info">account</Badge>;
  if (props.source === 'environment')
    return (
      <>
        <Badge>environment</Badge> {props.env ? <code>{props.env}</code> : null}
      </>
    );
  return <Badge>default</Badge>;
}

export function SettingsPage(props: { scope: Scope; onAccountCreated: (id: string) => void }) {
  const { account } = props.scope;
  const limits = useLoad(
    () =>
      get<{ data: AccountLimits }>(`/v1/admin/accounts/${encodeURIComponent(account.id)}/limits`).then(
        (r) => r.data,
      ),
    [account.id],
  );
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(NUMERIC.map((key) => [key, toText(account.settings[key])])),
  );
  const [countries, setCountries] = useState((account.settings.allowedCountries ?? []).join(', '));
  const [messageValues, setMessageValues] = useState<Record<MessageKey, string>>(() => ({
    locale: account.settings.locale ?? '',
    webOtpHost: account.settings.webOtpHost ?? '',
    appHash: account.settings.appHash ?? '',
  }));
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    // An emptied field goes back to the service-wide default (null).
    const body: Record<string, unknown> = {};
    for (const key of NUMERIC) {
      const text = values[key]?.trim() ?? '';
      if (text !== toText(account.settings[key])) body[key] = text === '' ? null : Number(text);
    }
    const list = countries
      .split(/[\s,]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    if (list.join(',') !== (account.settings.allowedCountries ?? []).join(','))
      body.allowedCountries = list.length ? list : null;
    for (const key of MESSAGE_KEYS) {
      const text = messageValues[key].trim();
      if (text !== (account.settings[key] ?? '')) body[key] = text === '' ? null : text;
    }
    action
      .run(() => patch(`/v1/admin/accounts/${encodeURIComponent(account.id)}/settings`, body))
      .then((ok) => {
        if (ok) {
          setSaved(true);
          props.scope.reloadAccount();
          limits.reload();
        }
      });
  };

  const inForce = limits.data;
  const rows = (inForce?.limits ?? []).filter((l): l is LimitInForce & { name: NumericKey } =>
    Object.hasOwn(LABELS, l.name),
  );
  return (
    <>
      <PageHeader
        title="Limits & settings"
        description={`The values in force for ${account.name} and where each comes from: the built-in default, the deployment's environment, or this account. Leave an override empty to use the deployment's value.`}
      />
      <ErrorBox error={limits.error} />
      <form onSubmit={save}>
        <Card title="Limits">
          {!inForce ? (
            <Loading />
          ) : (
            <DataTable columns={['Setting', 'In force', 'From', 'Override for this account']}>
              {rows.map((l) => (
                <tr key={l.name} data-limit={l.name}>
                  <td>
                    <strong>{LABELS[l.name].label}</strong>
                    <div class="field-hint">{l.description}</div>
                  </td>
                  <td class="number" data-testid="in-force">
                    {shown(l.value)}
                  </td>
                  <td data-testid="source">
                    <SourceBadge source={l.source} env={l.env} />
                    {l.source === 'account' && (
                      <div class="field-hint">deployment: {shown(l.deployment)}</div>
                    )}
                  </td>
                  <td>
                    <input
                      type="number"
                      name={l.name}
                      aria-label={LABELS[l.name].label}
                      inputMode="decimal"
                      step={LABELS[l.name].step ?? '1'}
                      min={l.min}
                      max={l.max}
                      placeholder={`${shown(l.deployment)} (${l.min}–${l.max})`}
                      value={values[l.name]}
                      onInput={(e) => setValues({ ...values, [l.name]: e.currentTarget.value })}
                    />
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </Card>
        <Card title="Messages">
          {inForce && (
            <MessageSettings
              inForce={inForce.messages}
              values={messageValues}
              onChange={(key, value) => setMessageValues({ ...messageValues, [key]: value })}
            />
          )}
        </Card>
        <Card title="Countries">
          {inForce && (
            <p data-testid="countries-in-force">
              In force: <strong>{countryList(inForce.allowedCountries.value)}</strong>{' '}
              <SourceBadge source={inForce.allowedCountries.source} env="ALLOWED_COUNTRIES" />
              {inForce.allowedCountries.source === 'account' && (
                <span class="muted"> (deployment: {countryList(inForce.allowedCountries.deployment)})</span>
              )}
            </p>
          )}
          <Field
            label="Allowed countries for SMS and WhatsApp"
            hint="ISO codes separated by commas (e.g. US, GB, DE): narrows the deployment's list, never widens it; empty: the deployment's list."
          >
            <input
              name="allowedCountries"
              value={countries}
              onInput={(e) => setCountries(e.currentTarget.value)}
            />
          </Field>
        </Card>
        <ErrorBox error={action.error} />
        {saved && <Notice kind="success">Settings saved.</Notice>}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={action.busy}>
            Save settings
          </button>
        </div>
      </form>
      <NewAccount onCreated={props.onAccountCreated} />
    </>
  );
}

/** The default locale and the one-tap lines, each with the value in force and where it comes from. */
function MessageSettings(props: {
  inForce: MessageSettingInForce[];
  values: Record<MessageKey, string>;
  onChange: (key: MessageKey, value: string) => void;
}) {
  const byName = new Map(props.inForce.map((m) => [m.name, m]));
  return (
    <DataTable columns={['Setting', 'In force', 'From', 'For this account']}>
      {MESSAGE_KEYS.map((key) => {
        const m = byName.get(key);
        if (!m) return null;
        const label = MESSAGE_LABELS[key].label;
        return (
          <tr key={key} data-setting={key}>
            <td>
              <strong>{label}</strong>
              <div class="field-hint">{m.description}</div>
            </td>
            <td data-testid="in-force">
              <code>{m.value ?? 'none'}</code>
            </td>
            <td data-testid="source">
              <SourceBadge source={m.source} env={m.env} />
            </td>
            <td>
              {key === 'locale' ? (
                <select
                  name={key}
                  aria-label={label}
                  value={props.values[key]}
                  onChange={(e) => props.onChange(key, e.currentTarget.value)}
                >
                  <option value="">none: the phone's country, else English</option>
                  {LOCALE_OPTIONS.map(([code, name]) => (
                    <option key={code} value={code}>
                      {name} ({code})
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  name={key}
                  aria-label={label}
                  placeholder={m.deployment ?? MESSAGE_LABELS[key].placeholder}
                  value={props.values[key]}
                  onInput={(e) => props.onChange(key, e.currentTarget.value)}
                />
              )}
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function NewAccount(props: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const action = useAction();
  const create = (event: Event) => {
    event.preventDefault();
    action.run(async () => {
      const { data } = await post<{ data: Account }>('/v1/admin/accounts', { name: name.trim() });
      setName('');
      props.onCreated(data.id);
    });
  };
  return (
    <Card title="New account">
      <form class="form-row" onSubmit={create}>
        <Field label="Account name" hint="An account has its own keys, limits, branding and contacts.">
          <input
            name="accountName"
            required
            maxLength={100}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" disabled={action.busy || !name.trim()}>
          Create account
        </button>
      </form>
      <ErrorBox error={action.error} />
    </Card>
  );
}
