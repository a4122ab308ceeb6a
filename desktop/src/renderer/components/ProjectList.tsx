import { useEffect, useState } from 'react';
import { core, errorMessage } from '../trpc';
import { useApp } from '../store/app-store';
import { OpenFolder } from './OpenFolder';

/** The user's projects (from the server, or the cached list offline): a list named "Projects" whose items are buttons named by project name. */
export function ProjectList() {
  const { projects, projectsOffline, setProjects, openProject } = useApp();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    Promise.all([core.projects.list.query(), core.workspace.localFolders.query()]).then(
      ([r, localFolders]) => setProjects([...r.items, ...localFolders], r.offline),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [setProjects]);

  return (
    <section className="projects" aria-labelledby="projects-title">
      <h1 id="projects-title">Projects</h1>
      {projectsOffline && <p className="note">Offline: showing the projects as last seen.</p>}
      {error && <p role="alert">{error}</p>}
      <ul aria-label="Projects">
        {projects.filter((p) => !p.id.startsWith('local:')).map((p) => (
          <li key={p.id} aria-label={p.name}>
            <button type="button" onClick={() => openProject(p.id)}>
              <span className="name">{p.name}</span>
              {p.branch && <span className="branch">{p.branch}</span>}
            </button>
          </li>
        ))}
      </ul>
      <h2 id="local-folders-title">Local folders</h2>
      <ul aria-labelledby="local-folders-title">
        {projects.filter((p) => p.id.startsWith('local:')).map((p) => (
          <li key={p.id} aria-label={p.name}>
            <button type="button" onClick={() => openProject(p.id)}>
              <span className="name">{p.name}</span>
              {p.branch && <span className="branch">{p.branch}</span>}
            </button>
          </li>
        ))}
      </ul>
      <OpenFolder />
    </section>
  );
}
