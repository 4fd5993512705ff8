import { type ComponentChildren, cloneElement, type VNode } from 'preact';
import { useId, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { dateTime, utc } from '../format';

export function PageHeader(props: { title: string; description?: string; actions?: ComponentChildren }) {
  return (
    <header class="page-header">
      <div>
        <h1>{props.title}</h1>
        {props.description && <p class="muted">{props.description}</p>}
      </div>
      {props.actions && <div class="page-actions">{props.actions}</div>}
    </header>
  );
}

export function Card(props: {
  title?: string;
  children: ComponentChildren;
  class?: string;
  actions?: ComponentChildren;
}) {
  return (
    <section class={`card ${props.class ?? ''}`} aria-label={props.title}>
      {(props.title || props.actions) && (
        <div class="card-head">
          {props.title && <h2>{props.title}</h2>}
          {props.actions}
        </div>
      )}
      {props.children}
    </section>
  );
}

export function ErrorBox(props: { error: Error | undefined }) {
  if (!props.error) return null;
  const { error } = props;
  const details = error instanceof ApiError && Array.isArray(error.details) ? error.details : [];
  return (
    <div class="alert error" role="alert">
      <strong>{error instanceof ApiError ? error.code : 'Error'}</strong> {error.message}
      {details.length > 0 && (
        <ul>
          {details.map((d: { field?: string; message?: string }, i) => (
            <li key={i}>
              {d.field ? <code>{d.field}</code> : null} {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Notice(props: { children: ComponentChildren; kind?: 'success' | 'info' | 'warning' }) {
  return (
    <div class={`alert ${props.kind ?? 'info'}`} role="status">
      {props.children}
    </div>
  );
}

export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{props.title}</p>
      {props.children && <p class="muted">{props.children}</p>}
    </div>
  );
}

/**
 * A table that scrolls sideways inside its card on a narrow screen, with a header of its columns;
 * `actions` adds a last column of buttons, named for screen readers only. Children are the rows.
 */
export function DataTable(props: { columns: string[]; actions?: boolean; children: ComponentChildren }) {
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {props.actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

export function Loading() {
  return (
    <p class="muted loading" aria-live="polite">
      Loading…
    </p>
  );
}

export function Badge(props: {
  tone?: 'good' | 'bad' | 'warn' | 'neutral' | 'info';
  children: ComponentChildren;
}) {
  return <span class={`badge ${props.tone ?? 'neutral'}`}>{props.children}</span>;
}

export function statusTone(status: string): 'good' | 'bad' | 'warn' | 'neutral' | 'info' {
  if (['verified', 'succeeded', 'ok', 'up', 'delivered', 'low'].includes(status)) return 'good';
  if (['failed', 'down', 'undelivered', 'high', 'blocked'].includes(status)) return 'bad';
  if (['expired', 'degraded', 'medium', 'canceled'].includes(status)) return 'warn';
  if (status === 'pending') return 'info';
  return 'neutral';
}

/** A secret the service shows exactly once, with a copy button. */
export function SecretOnce(props: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<'idle' | 'ok' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('ok');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <section class="secret" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong>: copy it now, it is not shown again.
      </p>
      <div class="secret-row">
        <code class="secret-value" data-testid="secret">
          {props.secret}
        </code>
        <button type="button" class="primary" onClick={copy}>
          {copied === 'ok' ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
      {copied === 'failed' && (
        <p class="muted">The browser refused the clipboard: select the text and copy it.</p>
      )}
    </section>
  );
}

/**
 * A labelled control: the label names it, the hint describes it (aria-describedby), so the
 * accessible name stays the label alone.
 */
export function Field(props: { label: string; hint?: ComponentChildren; children: VNode; class?: string }) {
  const id = useId();
  const hintId = `${id}-hint`;
  const control = cloneElement(props.children, {
    id,
    'aria-describedby': props.hint ? hintId : undefined,
  });
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label class="field-label" for={id}>
        {props.label}
      </label>
      {control}
      {props.hint && (
        <span class="field-hint" id={hintId}>
          {props.hint}
        </span>
      )}
    </div>
  );
}

/** Newer and Older buttons of a paged list, with its page number. */
export function Pager(props: {
  label: string;
  number: number;
  nextCursor: string | null | undefined;
  onNewer: () => void;
  onOlder: (cursor: string) => void;
  busy?: boolean;
}) {
  const { nextCursor } = props;
  if (props.number === 1 && !nextCursor) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" onClick={props.onNewer} disabled={props.number === 1 || props.busy}>
        ← Newer
      </button>
      <span class="muted" data-testid="page-number">
        Page {props.number}
      </span>
      <button
        type="button"
        onClick={() => nextCursor && props.onOlder(nextCursor)}
        disabled={!nextCursor || props.busy}
      >
        Older →
      </button>
    </nav>
  );
}

/** A moment shown to the second in the operator's zone, its UTC form on hover. */
export function When(props: { iso: string | null | undefined; class?: string }) {
  const { iso } = props;
  if (!iso) return <span class={props.class}>—</span>;
  return (
    <time class={props.class} dateTime={iso} title={utc(iso)}>
      {dateTime(iso)}
    </time>
  );
}
