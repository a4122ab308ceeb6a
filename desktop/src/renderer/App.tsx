import { useEffect } from 'react';
import { ProjectList } from './components/ProjectList';
import { SignIn } from './components/SignIn';
import { SyncStatus } from './components/SyncStatus';
import { Workspace } from './components/Workspace';
import { useApp } from './store/app-store';
import { useReviews } from './store/reviews-slice';
import { core } from './trpc';

/** The app frame: top strip (project, sync status, user, sign out), then sign-in, the project list or the workspace. */
export function App() {
  const { session, setSession, projectId } = useApp();

  useEffect(() => {
    core.session.status.query().then(setSession, () => setSession({ signedIn: false, serverUrl: null, user: null, org: null }));
  }, [setSession]);

  if (!session) return <p className="note">Starting...</p>;
  if (!session.signedIn) return <SignIn />;
  return (
    <div className="app">
      <header className="top-strip">
        <span className="brand">Quire</span>
        <span className="org">{session.org?.name}</span>
        <span className="spacer" />
        <SyncStatus />
        <span className="user">{session.user?.email}</span>
        <button type="button" onClick={() => void core.session.signOut.mutate().then((s) => (useReviews.getState().reset(), setSession(s)))}>
          Sign out
        </button>
      </header>
      {projectId ? <Workspace projectId={projectId} /> : <ProjectList />}
    </div>
  );
}
