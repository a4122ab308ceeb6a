import { useState, type FormEvent } from 'react';
import { core, errorMessage } from '../trpc';
import { useApp } from '../store/app-store';

/** The sign-in form: "Server URL", "Email", "Password" and "Sign in" (the server's auth.signIn through the core). */
export function SignIn() {
  const setSession = useApp((s) => s.setSession);
  const [serverUrl, setServerUrl] = useState(useApp.getState().session?.serverUrl ?? 'http://localhost:4000');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSession(await core.session.signIn.mutate({ serverUrl, email, password }));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="sign-in">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
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
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
