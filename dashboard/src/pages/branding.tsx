import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, del, get, patch, post, request } from '../api';
import { EmailPreview } from '../components/email-preview';
import { Badge, Card, ErrorBox, Field, Notice, PageHeader } from '../components/ui';
import { useAction, useDebounced, useLoad } from '../hooks';
import { localeDirection, localeName } from '../locales';
import type { Branding, BuiltInTemplates, LocaleTemplates, Preview, Scope } from '../types';

/** The service's own accent colour (DEFAULT_BRANDING in src/domain/settings.ts) when an account sets none. */
const DEFAULT_ACCENT = '#2563eb';

/** The built-in texts by language, as the service answers them. */
type BuiltIns = Record<string, BuiltInTemplates>;

type TextField = 'brandName' | 'productName' | 'color' | 'logoUrl' | 'supportUrl' | 'emailFooter';
const TEXT_FIELDS: TextField[] = [
  'brandName',
  'productName',
  'color',
  'logoUrl',
  'supportUrl',
  'emailFooter',
];

interface Draft {
  fields: Record<TextField, string>;
  templates: Record<string, LocaleTemplates>;
}

function fromSaved(branding: Branding | undefined): Draft {
  return {
    fields: Object.fromEntries(TEXT_FIELDS.map((f) => [f, branding?.[f] ?? ''])) as Record<TextField, string>,
    templates: branding?.templates ?? {},
  };
}

/** A text that says nothing of the account's own: empty, or the built-in text as it is. */
const isBuiltIn = (text: string | undefined, builtIn: string | undefined) =>
  !text?.trim() || text === builtIn;

/**
 * The account's templates: what differs from the built-in texts. A field left as it was shown (the
 * built-in text) or emptied is no template, so it keeps following the service's texts.
 */
function cleanTemplates(
  templates: Record<string, LocaleTemplates>,
  builtIns: BuiltIns,
): Record<string, LocaleTemplates> | null {
  const out: Record<string, LocaleTemplates> = {};
  for (const [locale, t] of Object.entries(templates)) {
    const builtIn = builtIns[locale];
    const entry: LocaleTemplates = {};
    if (
      t.EMAIL &&
      !(isBuiltIn(t.EMAIL.subject, builtIn?.EMAIL.subject) && isBuiltIn(t.EMAIL.text, builtIn?.EMAIL.text))
    )
      entry.EMAIL = t.EMAIL;
    if (t.SMS && !isBuiltIn(t.SMS, builtIn?.SMS)) entry.SMS = t.SMS;
    if (t.WHATSAPP && !isBuiltIn(t.WHATSAPP, builtIn?.WHATSAPP)) entry.WHATSAPP = t.WHATSAPP;
    if (Object.keys(entry).length) out[locale] = entry;
  }
  return Object.keys(out).length ? out : null;
}

const CHANNEL_KEYS = ['EMAIL', 'SMS', 'WHATSAPP'] as const;

/**
 * The `templates` of a settings change. The service merges templates per language and channel,
 * so a template saved before and now back to the built-in text is sent as null (removed); no
 * template left at all is null for the whole.
 */
function templatesChange(
  draft: Record<string, LocaleTemplates>,
  saved: Record<string, LocaleTemplates> | undefined,
  builtIns: BuiltIns,
): Record<string, Record<string, unknown> | null> | null {
  const clean = cleanTemplates(draft, builtIns);
  if (!clean) return null;
  const change: Record<string, Record<string, unknown> | null> = {};
  for (const locale of new Set([...Object.keys(saved ?? {}), ...Object.keys(clean)])) {
    const next = clean[locale];
    if (!next) {
      change[locale] = null;
      continue;
    }
    const entry: Record<string, unknown> = { ...next };
    for (const channel of CHANNEL_KEYS)
      if (saved?.[locale]?.[channel] !== undefined && next[channel] === undefined) entry[channel] = null;
    change[locale] = entry;
  }
  return change;
}

/** The PATCH body's `branding`: an emptied field is null (back to the default). */
function toBody(draft: Draft, saved: Branding | undefined, builtIns: BuiltIns): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) body[f] = draft.fields[f].trim() === '' ? null : draft.fields[f];
  body.templates = templatesChange(draft.templates, saved?.templates, builtIns);
  return body;
}

export function BrandingPage(props: { scope: Scope }) {
  const { account } = props.scope;
  const saved = account.settings.branding;
  const [draft, setDraft] = useState<Draft>(() => fromSaved(saved));
  const [locale, setLocale] = useState<string>(account.settings.locale ?? 'en');
  const [purpose, setPurpose] = useState('sign-in');
  const [savedNotice, setSavedNotice] = useState(false);
  const action = useAction();
  // The service's own texts, which every template field starts from (and the languages it has).
  const builtInList = useLoad(
    () => get<{ data: BuiltInTemplates[] }>('/v1/admin/branding/templates').then((r) => r.data),
    [],
  );
  const builtIns = useMemo<BuiltIns>(
    () => Object.fromEntries((builtInList.data ?? []).map((t) => [t.locale, t])),
    [builtInList.data],
  );
  const builtIn = builtIns[locale];
  const setField = (f: TextField, value: string) =>
    setDraft({ ...draft, fields: { ...draft.fields, [f]: value } });
  const localeTemplates = draft.templates[locale] ?? {};
  // The template fields run in the locale's direction, whatever their first word (often {code}).
  const direction = localeDirection(locale);
  // Templates saved when Portuguese was one locale apply to both of its locales.
  const legacyPortuguese = (locale === 'pt-BR' || locale === 'pt-PT') && draft.templates.pt !== undefined;
  const setTemplates = (next: LocaleTemplates) =>
    setDraft({ ...draft, templates: { ...draft.templates, [locale]: next } });
  /** What a field shows: the account's template, else the built-in text. */
  const shown = {
    subject: localeTemplates.EMAIL?.subject ?? builtIn?.EMAIL.subject ?? '',
    text: localeTemplates.EMAIL?.text ?? builtIn?.EMAIL.text ?? '',
    SMS: localeTemplates.SMS ?? builtIn?.SMS ?? '',
    WHATSAPP: localeTemplates.WHATSAPP ?? builtIn?.WHATSAPP ?? '',
  };
  const customised = cleanTemplates({ [locale]: localeTemplates }, builtIns) !== null;

  const previewInput = useDebounced(
    useMemo(
      () => ({ branding: toBody(draft, saved, builtIns), locale, purpose }),
      [draft, saved, builtIns, locale, purpose],
    ),
    350,
  );
  const [preview, setPreview] = useState<{ data?: Preview; error?: Error }>({});
  useEffect(() => {
    let current = true;
    post<{ data: Preview }>(`/v1/admin/accounts/${encodeURIComponent(account.id)}/branding/preview`, {
      branding: previewInput.branding,
      locale: previewInput.locale,
      ...(previewInput.purpose.trim() ? { purpose: previewInput.purpose.trim() } : {}),
    }).then(
      (r) => current && setPreview({ data: r.data }),
      (error: Error) => current && setPreview((p) => ({ data: p.data, error })),
    );
    return () => {
      current = false;
    };
  }, [account.id, previewInput]);

  const save = (event: Event) => {
    event.preventDefault();
    setSavedNotice(false);
    action
      .run(() =>
        patch(`/v1/admin/accounts/${encodeURIComponent(account.id)}/settings`, {
          branding: toBody(draft, saved, builtIns),
        }),
      )
      .then((ok) => {
        if (ok) {
          setSavedNotice(true);
          props.scope.reloadAccount();
        }
      });
  };

  return (
    <>
      <PageHeader
        title="Branding"
        description={`How ${account.name}'s messages look: names, colours, logo, footer and texts per language.`}
      />
      <div class="branding">
        <form class="branding-form" onSubmit={save} aria-label="Branding">
          <Card title="Identity">
            <div class="form-grid">
              <Field label="Brand name" hint="The sender name of emails.">
                <input
                  name="brandName"
                  maxLength={60}
                  value={draft.fields.brandName}
                  onInput={(e) => setField('brandName', e.currentTarget.value)}
                />
              </Field>
              <Field label="Product name" hint="The {product} placeholder; defaults to the brand name.">
                <input
                  name="productName"
                  maxLength={60}
                  value={draft.fields.productName}
                  onInput={(e) => setField('productName', e.currentTarget.value)}
                />
              </Field>
              <Field label="Accent colour" hint={`#rrggbb; empty: the default ${DEFAULT_ACCENT}.`}>
                <span class="color-row">
                  <input
                    type="color"
                    aria-label="Accent colour picker"
                    value={/^#[0-9a-f]{6}$/i.test(draft.fields.color) ? draft.fields.color : DEFAULT_ACCENT}
                    onInput={(e) => setField('color', e.currentTarget.value)}
                  />
                  <input
                    name="color"
                    aria-label="Accent colour"
                    placeholder={DEFAULT_ACCENT}
                    value={draft.fields.color}
                    onInput={(e) => setField('color', e.currentTarget.value)}
                  />
                </span>
              </Field>
              <Field label="Support link" hint="https://… shown under the email.">
                <input
                  type="url"
                  name="supportUrl"
                  value={draft.fields.supportUrl}
                  onInput={(e) => setField('supportUrl', e.currentTarget.value)}
                />
              </Field>
              <Field label="Email footer" hint="Plain text, up to 500 characters." class="span-2">
                <textarea
                  name="emailFooter"
                  rows={2}
                  maxLength={500}
                  value={draft.fields.emailFooter}
                  onInput={(e) => setField('emailFooter', e.currentTarget.value)}
                />
              </Field>
            </div>
          </Card>
          <Logo
            scope={props.scope}
            logoUrl={draft.fields.logoUrl}
            onLogoUrl={(v) => setField('logoUrl', v)}
          />
          <Card title="Texts">
            <div class="toolbar">
              <Field label="Language">
                <select name="locale" value={locale} onChange={(e) => setLocale(e.currentTarget.value)}>
                  {(builtInList.data ?? [{ locale: 'en' as const }]).map(({ locale: code }) => (
                    <option key={code} value={code}>
                      {localeName(code)} ({code})
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Sample purpose" hint="Fills {purpose} in the preview.">
                <input value={purpose} maxLength={100} onInput={(e) => setPurpose(e.currentTarget.value)} />
              </Field>
            </div>
            {legacyPortuguese && (
              <p class="muted" data-testid="legacy-pt">
                Templates saved under <code>pt</code> (before Portuguese had two locales) apply to {locale}{' '}
                where it has none of its own.
              </p>
            )}
            <p class="muted">
              Each field holds the service's built-in text: edit it to make it this account's; left as it is
              (or emptied) it stays the built-in one. Placeholders: <code>{'{code}'}</code> (required),{' '}
              <code>{'{minutes}'}</code>, <code>{'{product}'}</code>, <code>{'{purpose}'}</code>. An email
              text of your own replaces the built-in code line, purpose line and expiry sentence.
            </p>
            <ErrorBox error={builtInList.error} />
            <div class="form-grid">
              <Field label={`Email subject (${locale})`} class="span-2">
                <input
                  name="emailSubject"
                  dir={direction}
                  maxLength={200}
                  disabled={!builtIn}
                  value={shown.subject}
                  onInput={(e) =>
                    setTemplates({
                      ...localeTemplates,
                      EMAIL: { subject: e.currentTarget.value, text: shown.text },
                    })
                  }
                />
              </Field>
              <Field label={`Email text (${locale})`} class="span-2">
                <textarea
                  name="emailText"
                  dir={direction}
                  rows={4}
                  maxLength={2000}
                  disabled={!builtIn}
                  value={shown.text}
                  onInput={(e) =>
                    setTemplates({
                      ...localeTemplates,
                      EMAIL: { subject: shown.subject, text: e.currentTarget.value },
                    })
                  }
                />
              </Field>
              <Field label={`SMS (${locale})`}>
                <textarea
                  name="smsText"
                  dir={direction}
                  rows={3}
                  maxLength={480}
                  disabled={!builtIn}
                  value={shown.SMS}
                  onInput={(e) => setTemplates({ ...localeTemplates, SMS: e.currentTarget.value })}
                />
              </Field>
              <Field label={`WhatsApp (${locale})`}>
                <textarea
                  name="whatsappText"
                  dir={direction}
                  rows={3}
                  maxLength={1000}
                  disabled={!builtIn}
                  value={shown.WHATSAPP}
                  onInput={(e) => setTemplates({ ...localeTemplates, WHATSAPP: e.currentTarget.value })}
                />
              </Field>
            </div>
            {customised && (
              <p>
                <Badge tone="info">this account's texts</Badge>{' '}
                <button
                  type="button"
                  onClick={() => {
                    const { [locale]: _dropped, ...others } = draft.templates;
                    setDraft({ ...draft, templates: others });
                  }}
                >
                  Use the built-in texts ({locale})
                </button>
              </p>
            )}
          </Card>
          <ErrorBox error={action.error} />
          {savedNotice && <Notice kind="success">Branding saved: the next messages use it.</Notice>}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={action.busy}>
              Save branding
            </button>
            <button type="button" onClick={() => setDraft(fromSaved(saved))}>
              Discard changes
            </button>
          </div>
        </form>
        <PreviewPanel preview={preview.data} error={preview.error} />
      </div>
    </>
  );
}

function PreviewPanel(props: { preview: Preview | undefined; error: Error | undefined }) {
  const { preview, error } = props;
  return (
    <aside class="preview" aria-label="Live preview">
      <Card title="Live preview" actions={<span class="muted">code 123456</span>}>
        {error && (
          <div class="alert warning" role="alert">
            {error instanceof ApiError && error.status === 404
              ? 'This service has no preview endpoint yet.'
              : `Preview not updated: ${error.message}`}
          </div>
        )}
        {preview && (
          <>
            <h3>Email</h3>
            <p
              class="preview-subject"
              data-testid="preview-subject"
              lang={preview.locale}
              dir={preview.direction}
            >
              {preview.EMAIL.subject}
            </p>
            <EmailPreview html={preview.EMAIL.html} title="Email preview" />
            <h3>
              SMS{' '}
              <Badge tone={preview.SMS.segments > 1 ? 'warn' : 'info'}>
                <span data-testid="preview-segments">
                  {preview.SMS.segments} segment{preview.SMS.segments === 1 ? '' : 's'}
                </span>{' '}
                · {preview.SMS.characters} chars · {preview.SMS.encoding}
              </Badge>
            </h3>
            {preview.SMS.segments > 1 && (
              <p class="muted" data-testid="segments-warning">
                This text costs {preview.SMS.segments} SMS per send.
              </p>
            )}
            <pre class="bubble" data-testid="preview-sms" lang={preview.locale} dir={preview.direction}>
              {preview.SMS.text}
            </pre>
            <h3>WhatsApp</h3>
            <pre
              class="bubble whatsapp"
              data-testid="preview-whatsapp"
              lang={preview.locale}
              dir={preview.direction}
            >
              {preview.WHATSAPP.text}
            </pre>
          </>
        )}
      </Card>
    </aside>
  );
}

function Logo(props: { scope: Scope; logoUrl: string; onLogoUrl: (value: string) => void }) {
  const { account } = props.scope;
  const logo = account.settings.branding?.logo;
  const action = useAction();
  const upload = (file: File) =>
    action
      .run(() =>
        request('PUT', `/v1/admin/accounts/${encodeURIComponent(account.id)}/logo`, undefined, {
          raw: file,
          contentType: file.type,
        }),
      )
      .then(props.scope.reloadAccount);
  const remove = () =>
    action
      .run(() => del(`/v1/admin/accounts/${encodeURIComponent(account.id)}/logo`))
      .then(props.scope.reloadAccount);
  return (
    <Card title="Logo">
      <div class="logo-row">
        {logo ? (
          <img
            class="logo-preview"
            src={new URL(logo.url, window.location.href).pathname}
            alt={`${account.name} logo`}
          />
        ) : (
          <span class="logo-placeholder" aria-hidden="true">
            no logo
          </span>
        )}
        <div class="stack">
          <Field
            label="Upload a logo"
            hint="PNG, JPEG, GIF or WebP, at most 100 KiB. Used before the link below."
          >
            <input
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                if (file) upload(file);
                e.currentTarget.value = '';
              }}
            />
          </Field>
          {logo && (
            <button type="button" onClick={remove} disabled={action.busy}>
              Remove uploaded logo
            </button>
          )}
        </div>
      </div>
      <Field label="Logo link" hint="An external https:// image, used when nothing is uploaded.">
        <input
          type="url"
          name="logoUrl"
          value={props.logoUrl}
          onInput={(e) => props.onLogoUrl(e.currentTarget.value)}
        />
      </Field>
      <ErrorBox error={action.error} />
    </Card>
  );
}
