import { useEffect } from 'react';
import { ProjectList } from './components/ProjectList';
import { SignIn } from './components/SignIn';
import { SyncStatus } from './components/SyncStatus';
import { Workspace } from './components/Workspace';
import { OpenFolder } from './components/OpenFolder';
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
  // a local folder needs no server: it opens from the sign-in screen and works signed out
  if (!session.signedIn && projectId?.startsWith('local:')) {
    return (
      <div className="app app-headless">
        <Workspace projectId={projectId} />
      </div>
    );
  }
  if (!session.signedIn) {
    // both ways in on one screen, the local folder visible without scrolling
    return (
      <main className="sign-in">
        <SignIn />
        <section className="open-local" aria-labelledby="open-folder-title">
          <h2 id="open-folder-title">Or open a local folder</h2>
          <OpenFolder />
        </section>
      </main>
    );
  }
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
