import { useState } from 'preact/hooks';
import { patch, post } from '../api';
import type { Scope } from '../app';
import { Card, ErrorBox, Field, Notice, PageHeader } from '../components/ui';
import { useAction } from '../hooks';
import type { Account, AccountSettings } from '../types';

type NumericKey = Exclude<keyof AccountSettings, 'allowedCountries' | 'branding'>;

const NUMERIC: { key: NumericKey; label: string; hint: string; step?: string }[] = [
  { key: 'codeLength', label: 'Code length', hint: 'Digits in a code.' },
  { key: 'codeTtlSeconds', label: 'Code lifetime (s)', hint: 'How long a code can be checked.' },
  { key: 'maxAttempts', label: 'Attempts per code', hint: 'Checks allowed per request.' },
  {
    key: 'resendCooldownSeconds',
    label: 'Resend cooldown (s)',
    hint: 'Wait between two sends to one destination.',
  },
  { key: 'sendsPerDestinationPerHour', label: 'Sends per destination per hour', hint: 'Per channel.' },
  {
    key: 'failuresPerDestinationPerDay',
    label: 'Wrong codes per destination per day',
    hint: 'Past this, sends are refused.',
  },
  { key: 'keySendPerSecond', label: 'Sends per key per second', hint: 'send-code calls per API key.' },
  { key: 'keyVerifyPerSecond', label: 'Checks per key per second', hint: 'verify-code calls per API key.' },
  { key: 'countrySendsPerHour', label: 'SMS/WhatsApp sends per country per hour', hint: 'Per account.' },
  {
    key: 'riskThreshold',
    label: 'Risk threshold',
    hint: 'Sends scoring at or above it are refused (0–100).',
  },
  {
    key: 'pumpingMinSends',
    label: 'Pumping breaker: minimum sends',
    hint: 'Sends to a country before the breaker judges it.',
  },
  {
    key: 'pumpingMinConversion',
    label: 'Pumping breaker: minimum conversion',
    hint: 'Below this verified share (0–1) the breaker trips.',
    step: '0.01',
  },
];

const toText = (value: number | undefined) => (value === undefined ? '' : String(value));

export function SettingsPage(props: { scope: Scope; onAccountCreated: (id: string) => void }) {
  const { account } = props.scope;
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(NUMERIC.map(({ key }) => [key, toText(account.settings[key])])),
  );
  const [countries, setCountries] = useState((account.settings.allowedCountries ?? []).join(', '));
  const [saved, setSaved] = useState(false);
  const action = useAction();

  const save = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    // An emptied field goes back to the service-wide default (null).
    const body: Record<string, unknown> = {};
    for (const { key } of NUMERIC) {
      const text = values[key]?.trim() ?? '';
      if (text !== toText(account.settings[key])) body[key] = text === '' ? null : Number(text);
    }
    const list = countries
      .split(/[\s,]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    if (list.join(',') !== (account.settings.allowedCountries ?? []).join(','))
      body.allowedCountries = list.length ? list : null;
    action
      .run(() => patch(`/v1/admin/accounts/${encodeURIComponent(account.id)}/settings`, body))
      .then((ok) => {
        if (ok) {
          setSaved(true);
          props.scope.reloadAccount();
        }
      });
  };

  return (
    <>
      <PageHeader
        title="Limits & settings"
        description={`Overrides for ${account.name}. Leave a field empty to use the service-wide default.`}
      />
      <form onSubmit={save}>
        <Card title="Limits">
          <div class="form-grid">
            {NUMERIC.map(({ key, label, hint, step }) => (
              <Field key={key} label={label} hint={hint}>
                <input
                  type="number"
                  name={key}
                  inputMode="decimal"
                  step={step ?? '1'}
                  min="0"
                  placeholder="default"
                  value={values[key]}
                  onInput={(e) => setValues({ ...values, [key]: e.currentTarget.value })}
                />
              </Field>
            ))}
          </div>
        </Card>
        <Card title="Countries">
          <Field
            label="Allowed countries for SMS and WhatsApp"
            hint="ISO codes separated by commas (e.g. US, GB, DE); empty: the service-wide list."
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
