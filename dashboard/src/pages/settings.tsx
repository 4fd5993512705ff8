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
type NumberIntelligenceInForce = AccountLimits['numberIntelligence'][number];

/** The carrier lookups' settings this page sets (docs/lookup.md); meaning and choices come from the service. */
type LookupKey = 'lookup' | 'refuseLineTypes' | 'simSwapHours' | 'simSwapAction' | 'lookupFailClosed';
const LOOKUP_LABELS: Record<LookupKey, string> = {
  lookup: 'Look numbers up',
  refuseLineTypes: 'Refuse line types',
  simSwapHours: 'SIM change window (h)',
  simSwapAction: 'On a recent SIM change',
  lookupFailClosed: 'Refuse when a lookup fails',
};
const LOOKUP_KEYS = Object.keys(LOOKUP_LABELS) as LookupKey[];
const LOOKUP_WORDS: Record<string, string> = {
  off: 'off',
  sms_voice: 'SMS and VOICE',
  all_phone: 'every phone channel',
  signal: 'add the sim_swap signal',
  refuse: 'refuse the send (403)',
};

/** The form's values of the lookup settings, from what the account holds. */
interface LookupValues {
  lookup: string;
  refuseLineTypes: string[];
  simSwapHours: string;
  simSwapAction: string;
  lookupFailClosed: boolean;
}
const lookupValuesOf = (settings: AccountSettings): LookupValues => ({
  lookup: settings.lookup ?? '',
  refuseLineTypes: [...(settings.refuseLineTypes ?? [])],
  simSwapHours: settings.simSwapHours == null ? '' : String(settings.simSwapHours),
  simSwapAction: settings.simSwapAction ?? '',
  lookupFailClosed: settings.lookupFailClosed ?? false,
});

/** What changed between the account's lookup settings and the form's, as the PATCH takes it (null: the default). */
function lookupPatch(settings: AccountSettings, form: LookupValues): Record<string, unknown> {
  const was = lookupValuesOf(settings);
  const body: Record<string, unknown> = {};
  if (form.lookup !== was.lookup) body.lookup = form.lookup || null;
  if ([...form.refuseLineTypes].sort().join() !== [...was.refuseLineTypes].sort().join())
    body.refuseLineTypes = form.refuseLineTypes.length ? form.refuseLineTypes : null;
  if (form.simSwapHours.trim() !== was.simSwapHours)
    body.simSwapHours = form.simSwapHours.trim() === '' ? null : Number(form.simSwapHours);
  if (form.simSwapAction !== was.simSwapAction) body.simSwapAction = form.simSwapAction || null;
  if (form.lookupFailClosed !== was.lookupFailClosed) body.lookupFailClosed = form.lookupFailClosed || null;
  return body;
}

const lookupShown = (value: NumberIntelligenceInForce['value']): string => {
  if (value === null) return 'off';
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return LOOKUP_WORDS[String(value)] ?? String(value);
};
type NumericKey = Exclude<
  keyof AccountSettings,
  'allowedCountries' | 'branding' | 'linkRedirectOrigins' | NumberIntelligenceKey | MessageKey
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
  const [origins, setOrigins] = useState((account.settings.linkRedirectOrigins ?? []).join(', '));
  const [messageValues, setMessageValues] = useState<Record<MessageKey, string>>(() => ({
    locale: account.settings.locale ?? '',
    webOtpHost: account.settings.webOtpHost ?? '',
    appHash: account.settings.appHash ?? '',
  }));
  const [lookupValues, setLookupValues] = useState<LookupValues>(() => lookupValuesOf(account.settings));
  const [silentTimeout, setSilentTimeout] = useState(toText(account.settings.silentTimeoutSeconds));
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
    const originList = origins.split(/[\s,]+/).filter(Boolean);
    if (originList.join(',') !== (account.settings.linkRedirectOrigins ?? []).join(','))
      body.linkRedirectOrigins = originList.length ? originList : null;
    for (const key of MESSAGE_KEYS) {
      const text = messageValues[key].trim();
      if (text !== (account.settings[key] ?? '')) body[key] = text === '' ? null : text;
    }
    Object.assign(body, lookupPatch(account.settings, lookupValues));
    if (silentTimeout.trim() !== toText(account.settings.silentTimeoutSeconds))
      body.silentTimeoutSeconds = silentTimeout.trim() === '' ? null : Number(silentTimeout.trim());
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
        <Card title="Carrier lookups">
          {inForce && (
            <LookupSettings
              inForce={inForce.numberIntelligence}
              values={lookupValues}
              onChange={(next) => setLookupValues({ ...lookupValues, ...next })}
            />
          )}
        </Card>
        <Card title="Silent network authentication">
          {inForce && (
            <SilentSettings
              inForce={inForce.numberIntelligence.find((n) => n.name === 'silentTimeoutSeconds')}
              value={silentTimeout}
              onChange={setSilentTimeout}
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
        <Card title="Magic links">
          {inForce && (
            <p data-testid="link-origins-in-force">
              In force: <strong>{inForce.links[0]?.value.join(', ') || 'no redirect allowed'}</strong>{' '}
              <SourceBadge source={inForce.links[0]?.source ?? 'default'} />
            </p>
          )}
          <Field
            label="Redirect origins of magic links"
            hint="Origins a link may send the browser to once it verified (https://app.example.com; http:// only on localhost), separated by commas; empty: links end on the service's own page."
          >
            <input
              name="linkRedirectOrigins"
              value={origins}
              onInput={(e) => setOrigins(e.currentTarget.value)}
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

/**
 * The carrier lookups (docs/lookup.md): which phone channels are looked up, the line types
 * refused, the SIM change window and what it does, and whether a failed lookup refuses. Each row
 * shows the value in force and where it comes from; the choices are the service's.
 */
function LookupSettings(props: {
  inForce: NumberIntelligenceInForce[];
  values: LookupValues;
  onChange: (next: Partial<LookupValues>) => void;
}) {
  const byName = new Map(props.inForce.map((s) => [s.name, s]));
  const { values, onChange } = props;
  const control = (key: LookupKey, s: NumberIntelligenceInForce) => {
    const label = LOOKUP_LABELS[key];
    switch (key) {
      case 'lookup':
      case 'simSwapAction':
        return (
          <select
            name={key}
            aria-label={label}
            value={values[key]}
            onChange={(e) => onChange({ [key]: e.currentTarget.value })}
          >
            <option value="">default: {lookupShown(s.default)}</option>
            {(s.allowed ?? []).map((v) => (
              <option key={v} value={v}>
                {LOOKUP_WORDS[v] ?? v}
              </option>
            ))}
          </select>
        );
      case 'refuseLineTypes':
        return (
          <fieldset class="checkbox-row" aria-label={label}>
            {(s.allowed ?? []).map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  name={`refuseLineTypes-${type}`}
                  checked={values.refuseLineTypes.includes(type)}
                  onChange={(e) =>
                    onChange({
                      refuseLineTypes: e.currentTarget.checked
                        ? [...values.refuseLineTypes, type]
                        : values.refuseLineTypes.filter((t) => t !== type),
                    })
                  }
                />{' '}
                {type}
              </label>
            ))}
          </fieldset>
        );
      case 'simSwapHours':
        return (
          <input
            type="number"
            name={key}
            aria-label={label}
            step="1"
            min={s.min ?? undefined}
            max={s.max ?? undefined}
            placeholder={`off (${s.min}–${s.max})`}
            value={values.simSwapHours}
            onInput={(e) => onChange({ simSwapHours: e.currentTarget.value })}
          />
        );
      case 'lookupFailClosed':
        return (
          <input
            type="checkbox"
            name={key}
            aria-label={label}
            checked={values.lookupFailClosed}
            onChange={(e) => onChange({ lookupFailClosed: e.currentTarget.checked })}
          />
        );
    }
  };
  return (
    <DataTable columns={['Setting', 'In force', 'From', 'For this account']}>
      {LOOKUP_KEYS.map((key) => {
        const s = byName.get(key);
        if (!s) return null;
        return (
          <tr key={key} data-setting={key}>
            <td>
              <strong>{LOOKUP_LABELS[key]}</strong>
              <div class="field-hint">{s.description}</div>
            </td>
            <td data-testid="in-force">{lookupShown(s.value)}</td>
            <td data-testid="source">
              <SourceBadge source={s.source} />
            </td>
            <td>{control(key, s)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** SILENT's timeout: how long the device may take before the fallback code (send-code `fallback`) goes. */
function SilentSettings(props: {
  inForce: NumberIntelligenceInForce | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const s = props.inForce;
  if (!s) return null;
  const label = 'Silent check timeout (s)';
  return (
    <DataTable columns={['Setting', 'In force', 'From', 'Override for this account']}>
      <tr data-setting="silentTimeoutSeconds">
        <td>
          <strong>{label}</strong>
          <div class="field-hint">{s.description}</div>
        </td>
        <td class="number" data-testid="in-force">
          {String(s.value)}
        </td>
        <td data-testid="source">
          <SourceBadge source={s.source} />
        </td>
        <td>
          <input
            type="number"
            name="silentTimeoutSeconds"
            aria-label={label}
            step="1"
            min={s.min ?? undefined}
            max={s.max ?? undefined}
            placeholder={`${String(s.default)} (${s.min}–${s.max})`}
            value={props.value}
            onInput={(e) => props.onChange(e.currentTarget.value)}
          />
        </td>
      </tr>
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
