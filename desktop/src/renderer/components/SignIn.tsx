import { useState, type FormEvent } from 'react';
import { core, errorMessage } from '../trpc';
import { useApp } from '../store/app-store';
import { DEFAULT_SERVER_URL, lastServerUrl, rememberServerUrl } from '../store/last-server';

/**
 * The sign-in form: "Server URL", "Email", "Password" and the primary button "Sign in" (the
 * server's auth.signIn through the core). The server URL starts as the session's server, else the
 * last one signed in to on this computer (store/last-server.ts), else {@link DEFAULT_SERVER_URL}.
 */
export function SignIn() {
  const setSession = useApp((s) => s.setSession);
  const [serverUrl, setServerUrl] = useState(() => useApp.getState().session?.serverUrl ?? lastServerUrl() ?? DEFAULT_SERVER_URL);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const session = await core.session.signIn.mutate({ serverUrl, email, password });
      rememberServerUrl(session.serverUrl ?? serverUrl);
      setSession(session);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="sign-in-form" onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Quire</h1>
      <label>
        Server URL
        <input type="url" value={serverUrl} onChange={(e) => setServerUrl(e.target.value)} required autoComplete="url" />
      </label>
      <label>
        Email
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="username" />
      </label>
      <label>
        Password
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required autoComplete="current-password" />
      </label>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        Sign in
      </button>
    </form>
  );
}
