import { useEffect, useRef, useState, type ReactNode } from 'react';
import { groupFolder, pageSlug, type GroupRef, type NavGroupInfo } from '@quire/shared/docs/config/navigation-edits';
import { useApp } from '../store/app-store';
import { useUi } from '../store/ui-slice';
import { core, errorMessage } from '../trpc';
import { usePageActions, type PageDialog } from './page-actions';
import {
  createPage, deletePageFile, listTemplates, loadNav, movePageFile, pageOfFile, renamePageFile, type NavContext,
} from './page-ops';
import { frontmatterTitle } from '@quire/shared/docs/page-text';
import './pages.css';

/** How a group reads in a select: its name, and what holds it when anything does. */
const groupLabel = (g: NavGroupInfo) => (g.within.length ? `${g.name} (${g.within.join(' / ')})` : g.name);
const refOf = (g: NavGroupInfo): GroupRef => ({ group: g.name, within: g.within });
const NEW_GROUP = 'new';

/** A modal `<dialog>` named by its heading, open while mounted; Escape or "Cancel" closes it. */
function Modal({ title, onClose, onSubmit, busy, children, submit, danger }: {
  title: string;
  onClose(): void;
  onSubmit(): void;
  busy: boolean;
  children: ReactNode;
  /** the submit button's name */
  submit: string;
  danger?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const headingId = `page-dialog-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog ref={ref} className="page-dialog" aria-labelledby={headingId} onCancel={(e) => (e.preventDefault(), onClose())}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy) onSubmit();
        }}
      >
        <h2 id={headingId}>{title}</h2>
        {children}
        <div className="dialog-buttons">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={danger ? 'danger' : 'primary'} disabled={busy}>
            {submit}
          </button>
        </div>
      </form>
    </dialog>
  );
}

/** The navigation context of the open project, read when a dialog opens. */
function useNav(projectId: string): { nav: NavContext | null; error: string | null } {
  const [state, setState] = useState<{ nav: NavContext | null; error: string | null }>({ nav: null, error: null });
  useEffect(() => {
    let cancelled = false;
    loadNav(projectId).then(
      (nav) => !cancelled && setState({ nav, error: null }),
      (err: unknown) => !cancelled && setState({ nav: null, error: errorMessage(err) }),
    );
    return () => {
      cancelled = true;
    };
  }, [projectId]);
  return state;
}

/** Runs a page operation: busy while it runs, its error shown in the dialog, then `done`. */
function useRun(): { busy: boolean; error: string | null; run(op: () => Promise<void>): void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    run(op) {
      setBusy(true);
      setError(null);
      op().then(
        () => setBusy(false),
        (err: unknown) => {
          setBusy(false);
          setError(errorMessage(err));
        },
      );
    },
  };
}

/** The "Group" select: the navigation's groups, and "New group..." with a "New group name" box. */
function GroupField({ groups, value, onChange, newName, onNewName, allowNew }: {
  groups: NavGroupInfo[];
  value: string;
  onChange(v: string): void;
  newName: string;
  onNewName(v: string): void;
  allowNew: boolean;
}) {
  return (
    <>
      <label>
        Group
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          {groups.map((g, i) => (
            <option key={i} value={String(i)}>
              {groupLabel(g)}
            </option>
          ))}
          {allowNew && <option value={NEW_GROUP}>New group...</option>}
        </select>
      </label>
      {value === NEW_GROUP && (
        <label>
          New group name
          <input value={newName} onChange={(e) => onNewName(e.target.value)} maxLength={200} required />
        </label>
      )}
    </>
  );
}

/** The index of the group `ref` names in `groups`, as a select value (the first group when none matches). */
function groupValue(groups: NavGroupInfo[], ref: GroupRef | undefined): string {
  if (!groups.length) return NEW_GROUP;
  const i = ref ? groups.findIndex((g) => g.name === ref.group && (ref.within ?? []).every((w) => g.within.includes(w))) : -1;
  return String(Math.max(i, 0));
}

/**
 * "New page": "Title", "Group" (a group of docs.json, or a new group name), an optional "Path"
 * (default: the title's slug in the folder the group's pages share) and a "Template" when the
 * project has templates (page-ops.ts TEMPLATES_FOLDER), else a blank page. "Create page" writes the
 * file, lists it in docs.json and opens it.
 */
function NewPageDialog({ projectId, group }: { projectId: string; group?: GroupRef }) {
  const close = usePageActions((s) => s.close);
  const { nav, error: navError } = useNav(projectId);
  const [title, setTitle] = useState('');
  const [groupChoice, setGroupChoice] = useState<string | null>(null);
  const [newGroup, setNewGroup] = useState('');
  const [path, setPath] = useState('');
  const [templates, setTemplates] = useState<Array<{ name: string; path: string }>>([]);
  const [template, setTemplate] = useState('');
  const { busy, error, run } = useRun();
  const groups = nav?.groups ?? [];
  const choice = groupChoice ?? groupValue(groups, group);

  useEffect(() => {
    if (!nav) return;
    listTemplates(projectId, nav).then(setTemplates, () => setTemplates([]));
  }, [projectId, nav]);

  const folder = choice === NEW_GROUP ? pageSlug(newGroup) : groups[Number(choice)] ? groupFolder(groups[Number(choice)]!) : '';
  const defaultPath = `${folder ? `${folder}/` : ''}${pageSlug(title) || 'new-page'}`;
  const submit = () =>
    run(async () => {
      if (!title.trim()) throw new Error('Give the page a title.');
      const hasNav = nav?.configText != null && !nav.error;
      const file = await createPage(projectId, {
        title,
        page: path.trim() || defaultPath,
        ...(hasNav && choice === NEW_GROUP ? { newGroup } : {}),
        ...(hasNav && choice !== NEW_GROUP && groups[Number(choice)] ? { group: refOf(groups[Number(choice)]!) } : {}),
        ...(template ? { template } : {}),
      });
      close();
      usePageActions.getState().changed(file);
      useApp.getState().openFile(file);
      useUi.getState().setNotice(`Created ${file}`);
    });

  return (
    <Modal title="New page" onClose={close} onSubmit={submit} busy={busy || (!nav && !navError)} submit="Create page">
      <label>
        Title
        <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required autoFocus />
      </label>
      {nav && !nav.error && nav.configText !== null && (
        <GroupField groups={groups} value={choice} onChange={setGroupChoice} newName={newGroup} onNewName={setNewGroup} allowNew />
      )}
      <label>
        Path
        <input value={path} onChange={(e) => setPath(e.target.value)} placeholder={defaultPath} aria-describedby="new-page-path-note" maxLength={400} />
      </label>
      <p className="note" id="new-page-path-note">
        Leave empty for {defaultPath}.mdx{nav?.docsRoot ? ` in ${nav.docsRoot}/` : ''}.
      </p>
      {templates.length > 0 && (
        <label>
          Template
          <select value={template} onChange={(e) => setTemplate(e.target.value)}>
            <option value="">Blank page</option>
            {templates.map((t) => (
              <option key={t.path} value={t.path}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {(navError || nav?.error) && <p className="note">{navError ?? nav?.error}</p>}
      {error && <p role="alert">{error}</p>}
    </Modal>
  );
}

/**
 * "Rename page": its "Title" (frontmatter) and "Path". A new path moves the file, renames its
 * navigation entries and adds a redirect from the old path; "Update links in other pages" (on by
 * default) points their links at the new path.
 */
function RenameDialog({ projectId, file, title: shownTitle }: { projectId: string; file: string; title: string }) {
  const close = usePageActions((s) => s.close);
  const { nav } = useNav(projectId);
  const [title, setTitle] = useState<string | null>(null);
  const [path, setPath] = useState<string | null>(null);
  const [updateLinks, setUpdateLinks] = useState(true);
  const { busy, error, run } = useRun();
  const oldPage = nav ? (pageOfFile(nav, file) ?? '') : '';

  useEffect(() => {
    let cancelled = false;
    core.files.read.query({ projectId, path: file }).then(
      (f) => !cancelled && setTitle((t) => t ?? frontmatterTitle(f.content ?? '') ?? shownTitle),
      () => !cancelled && setTitle((t) => t ?? shownTitle),
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, file, shownTitle]);

  const pathValue = path ?? oldPage;
  const submit = () =>
    run(async () => {
      const result = await renamePageFile(projectId, { file, title: title ?? undefined, page: pathValue, updateLinks });
      close();
      usePageActions.getState().changed(result.file);
      if (useApp.getState().openPath === file || result.file !== file) useApp.getState().openFile(result.file);
      const links = result.linksUpdated ? `; ${result.linksUpdated} links in ${result.pagesUpdated} pages updated` : '';
      useUi.getState().setNotice(result.file === file ? 'Page renamed' : `Moved to ${result.file}${links}`);
    });

  return (
    <Modal title="Rename page" onClose={close} onSubmit={submit} busy={busy || !nav || title === null} submit="Rename">
      <label>
        Title
        <input value={title ?? ''} onChange={(e) => setTitle(e.target.value)} maxLength={200} required autoFocus />
      </label>
      <label>
        Path
        <input value={pathValue} onChange={(e) => setPath(e.target.value)} maxLength={400} required />
      </label>
      {pathValue.trim() !== oldPage && oldPage && (
        <>
          <p className="note">
            A redirect from /{oldPage} to the new path is added to docs.json, so old links keep working.
          </p>
          <label className="check">
            <input type="checkbox" checked={updateLinks} onChange={(e) => setUpdateLinks(e.target.checked)} />
            Update links in other pages
          </label>
        </>
      )}
      {error && <p role="alert">{error}</p>}
    </Modal>
  );
}

/** "Move page": the "Group" to list the page in (at its end). */
function MoveDialog({ projectId, file, title, from }: { projectId: string; file: string; title: string; from?: GroupRef }) {
  const close = usePageActions((s) => s.close);
  const { nav, error: navError } = useNav(projectId);
  const [choice, setChoice] = useState<string | null>(null);
  const { busy, error, run } = useRun();
  const groups = nav?.groups ?? [];
  const value = choice ?? groupValue(groups, from);
  const submit = () =>
    run(async () => {
      const g = groups[Number(value)];
      if (!g) throw new Error('Choose a group.');
      await movePageFile(projectId, file, refOf(g), from);
      close();
      usePageActions.getState().changed(file);
      useUi.getState().setNotice(`Moved ${title} to ${g.name}`);
    });
  return (
    <Modal title="Move page" onClose={close} onSubmit={submit} busy={busy || !nav || groups.length === 0} submit="Move">
      <p className="note">Move {title} to the end of a group of the navigation.</p>
      {groups.length > 0 && <GroupField groups={groups} value={value} onChange={setChoice} newName="" onNewName={() => undefined} allowNew={false} />}
      {(navError || nav?.error) && <p className="note">{navError ?? nav?.error}</p>}
      {error && <p role="alert">{error}</p>}
    </Modal>
  );
}

/** "Delete page": asks first; removes the file and its navigation entries (proposed with the other changes). */
function DeleteDialog({ projectId, file, title }: { projectId: string; file: string; title: string }) {
  const close = usePageActions((s) => s.close);
  const { busy, error, run } = useRun();
  const submit = () =>
    run(async () => {
      await deletePageFile(projectId, file);
      close();
      if (useApp.getState().openPath === file) useApp.getState().openFile(null);
      usePageActions.getState().changed();
      useUi.getState().setNotice(`Deleted ${file}`);
    });
  return (
    <Modal title="Delete page" onClose={close} onSubmit={submit} busy={busy} submit="Delete" danger>
      <p>
        Delete <strong>{title}</strong> ({file})? Its entry in the navigation goes too. The deletion is proposed with your other changes, and
        until then nothing changes on the server.
      </p>
      {error && <p role="alert">{error}</p>}
    </Modal>
  );
}

/** The open page dialog, if any (page-actions.ts). */
export function PageDialogs({ projectId }: { projectId: string }) {
  const dialog: PageDialog | null = usePageActions((s) => s.dialog);
  if (!dialog) return null;
  if (dialog.kind === 'new') return <NewPageDialog key="new" projectId={projectId} group={dialog.group} />;
  if (dialog.kind === 'rename') return <RenameDialog key={`rename:${dialog.file}`} projectId={projectId} file={dialog.file} title={dialog.title} />;
  if (dialog.kind === 'move') {
    return <MoveDialog key={`move:${dialog.file}`} projectId={projectId} file={dialog.file} title={dialog.title} from={dialog.from} />;
  }
  return <DeleteDialog key={`delete:${dialog.file}`} projectId={projectId} file={dialog.file} title={dialog.title} />;
}
