import { useState } from 'preact/hooks';
import { signIn } from '../api';
import { ErrorBox } from '../components/ui';
import { useAction } from '../hooks';

export function SignIn(props: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    // The token goes to the service once; the session cookie (HttpOnly) carries the sign-in.
    const ok = await action.run(() => signIn(token));
    setToken('');
    if (ok) props.onSignedIn();
  };
  return (
    <main class="sign-in">
      <form class="card sign-in-card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div class="brand">
          <span class="brand-mark" aria-hidden="true">
            CV
          </span>
          <span>Contact Verify</span>
        </div>
        <h1 id="sign-in-title">Sign in to the dashboard</h1>
        <p class="muted">
          Paste the service's admin token (<code>ADMIN_TOKEN</code>, or the one printed on first start).
        </p>
        <label class="field">
          <span class="field-label">Admin token</span>
          <input
            type="password"
            name="token"
            autocomplete="current-password"
            required
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
          />
        </label>
        {action.error && (
          <ErrorBox
            error={
              (action.error as { status?: number }).status === 401
                ? new Error('That admin token is not valid.')
                : action.error
            }
          />
        )}
        <button type="submit" class="primary wide" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
