import { useEffect, useState } from 'preact/hooks';
import { get, resumeSession, signOut, whenSignedOut } from './api';
import { Loading } from './components/ui';
import { useLoad } from './hooks';
import { BrandingPage } from './pages/branding';
import { ContactPage, ContactsPage } from './pages/contacts';
import { HealthPage } from './pages/health';
import { KeysPage } from './pages/keys';
import { OutboxPage } from './pages/outbox';
import { OverviewPage } from './pages/overview';
import { SettingsPage } from './pages/settings';
import { SignIn } from './pages/sign-in';
import { WebhookPage, WebhooksPage } from './pages/webhooks';
import { href, navigate, useRoute } from './router';
import type { Account, Mode, Scope } from './types';

const NAV = [
  ['overview', 'Overview'],
  ['contacts', 'Contacts'],
  ['keys', 'API keys'],
  ['branding', 'Branding'],
  ['outbox', 'Outbox'],
  ['settings', 'Limits & settings'],
  ['webhooks', 'Webhooks'],
  ['health', 'Health'],
] as const;

export function App() {
  const [session, setSession] = useState<'unknown' | 'in' | 'out'>('unknown');
  useEffect(() => {
    whenSignedOut(() => setSession('out'));
    resumeSession().then(
      (s) => setSession(s ? 'in' : 'out'),
      () => setSession('out'),
    );
  }, []);
  if (session === 'unknown') return <Loading />;
  if (session === 'out') return <SignIn onSignedIn={() => setSession('in')} />;
  return <Shell onSignOut={() => signOut().finally(() => setSession('out'))} />;
}

const ACCOUNT_KEY = 'cv.dashboard.account';
const MODE_KEY = 'cv.dashboard.mode';

function Shell(props: { onSignOut: () => void }) {
  const route = useRoute();
  const accounts = useLoad(() => get<{ data: Account[] }>('/v1/admin/accounts').then((r) => r.data), []);
  // Which account and mode are being looked at is not a secret: it survives a reload.
  const [accountId, setAccountId] = useState(localStorage.getItem(ACCOUNT_KEY) ?? '');
  const [mode, setMode] = useState<Mode>(localStorage.getItem(MODE_KEY) === 'test' ? 'test' : 'live');
  const [menuOpen, setMenuOpen] = useState(false);
  const list = accounts.data ?? [];
  const account = list.find((a) => a.id === accountId) ?? list[0];
  const page = route[0] ?? 'overview';
  useEffect(() => setMenuOpen(false), [page]);

  const keepAccount = (id: string) => {
    localStorage.setItem(ACCOUNT_KEY, id);
    setAccountId(id);
  };
  const keepMode = (value: Mode) => {
    localStorage.setItem(MODE_KEY, value);
    setMode(value);
  };
  // A page of one thing (a contact, an endpoint, a request's message) belongs to the account and
  // mode it was opened under: another choice at the top goes to the list of the new scope rather
  // than leaving the old one's thing on screen (and its actions) under the new scope's name.
  const leaveDetail = () => {
    if (route.length > 1) navigate(`/${page}`);
  };
  const chooseAccount = (id: string) => {
    if (id !== account?.id) leaveDetail();
    keepAccount(id);
  };
  const chooseMode = (value: Mode) => {
    if (value !== mode) leaveDetail();
    keepMode(value);
  };
  /** Takes the scope of the thing shown (a link opened under another account), staying on its page. */
  const adopt = (id: string, value: Mode) => {
    keepAccount(id);
    keepMode(value);
  };

  return (
    <div class="shell">
      <aside class={`sidebar ${menuOpen ? 'open' : ''}`}>
        <div class="brand">
          <span class="brand-mark" aria-hidden="true">
            CV
          </span>
          <span>Contact Verify</span>
          <button
            type="button"
            class="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label="Menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            ☰
          </button>
        </div>
        <nav id="main-nav" aria-label="Dashboard">
          {NAV.map(([path, label]) => (
            <a key={path} href={href(`/${path}`)} aria-current={page === path ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      </aside>
      <div class="main">
        <div class="topbar">
          <label class="inline-field">
            <span>Account</span>
            <select
              aria-label="Account"
              value={account?.id ?? ''}
              onChange={(e) => chooseAccount(e.currentTarget.value)}
            >
              {list.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
          <fieldset class="segmented" aria-label="Mode">
            {(['live', 'test'] as const).map((m) => (
              <button key={m} type="button" aria-pressed={mode === m} onClick={() => chooseMode(m)}>
                {m === 'live' ? 'Live' : 'Test'}
              </button>
            ))}
          </fieldset>
          <span class="spacer" />
          <button type="button" class="ghost" onClick={props.onSignOut}>
            Sign out
          </button>
        </div>
        <main class="content">
          {accounts.error && <p class="alert error">{accounts.error.message}</p>}
          {!account ? (
            <Loading />
          ) : (
            <Page
              route={route}
              scope={{ account, mode, accounts: list, reloadAccount: accounts.reload, adopt }}
              onAccountCreated={(id) => {
                chooseAccount(id);
                accounts.reload();
              }}
            />
          )}
        </main>
      </div>
    </div>
  );
}

function Page(props: { route: string[]; scope: Scope; onAccountCreated: (id: string) => void }) {
  const [page, id] = props.route;
  const { scope } = props;
  switch (page) {
    case 'contacts':
      return id ? <ContactPage id={id} scope={scope} /> : <ContactsPage scope={scope} />;
    case 'keys':
      return <KeysPage scope={scope} />;
    case 'branding':
      return <BrandingPage key={scope.account.id} scope={scope} />;
    case 'outbox':
      return <OutboxPage scope={scope} requestId={id} />;
    case 'settings':
      return <SettingsPage key={scope.account.id} scope={scope} onAccountCreated={props.onAccountCreated} />;
    case 'webhooks':
      return id ? <WebhookPage id={id} scope={scope} /> : <WebhooksPage scope={scope} />;
    case 'health':
      return <HealthPage />;
    default:
      return <OverviewPage scope={scope} />;
  }
}
