import { useState, type FormEvent } from 'react';
import { core, errorMessage } from '../trpc';
import { useApp } from '../store/app-store';
import './MergeView.css';

/**
 * Opens a folder or git checkout on this computer as a local project (no server needed): a text
 * box "Folder path" and a button "Open folder" (the core runs on this same machine, so the path is
 * one of its own). On success the project is listed with the others and opened.
 */
export function OpenFolder() {
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const ws = await core.workspace.openFolder.mutate({ path: folder });
      useApp.setState((s) => ({
        projects: [...s.projects.filter((p) => p.id !== ws.projectId), { id: ws.projectId, name: ws.name, slug: ws.name, branch: ws.ref }],
      }));
      useApp.getState().openProject(ws.projectId);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="open-folder" onSubmit={submit} aria-label="Open a local folder">
      <label>
        Folder path
        <input type="text" value={folder} onChange={(e) => setFolder(e.target.value)} placeholder="/home/you/docs" spellCheck={false} required />
      </label>
      <button type="submit" disabled={busy || !folder.trim()}>
        Open folder
      </button>
      {error && <p role="alert">{error}</p>}
    </form>
  );
}
