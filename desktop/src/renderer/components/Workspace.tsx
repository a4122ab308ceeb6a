import { useEffect, useRef, useState } from 'react';
import type { TreeNode } from '../../core/project-model';
import { core, errorMessage } from '../trpc';
import { useApp } from '../store/app-store';
import { FileTree } from './FileTree';
import { PageEditor } from './PageEditor';
import { ActivityRail, useActivity } from './ActivityRail';
import { ProposeDialog } from './reviews/ProposeDialog';
import { ReviewList } from './reviews/ReviewList';
import { ReviewView } from './reviews/ReviewView';
import { newsDescription, useReviewNews } from './reviews/use-review-news';
import { useReviews } from '../store/reviews-slice';
import { BuildsPanel } from './BuildsPanel';
import { BuildView } from './BuildView';
import { useBuilds } from '../store/builds-slice';
import { CommandPalette } from './CommandPalette';
import { StatusBar } from './StatusBar';
import { pagesOf, useUi } from '../store/ui-slice';
import { MergeView, refreshNotice, useConflicts } from './MergeView';
import { PageDialogs } from '../pages/PageDialogs';
import { usePageActions } from '../pages/page-actions';
import { useChanges } from '../store/changes-slice';
import { ChangeDiffView, ChangesPanel } from './ChangesPanel';
import { SearchPanel } from './SearchPanel';

/** The first page of a tree (depth first), to open when a project opens. */
function firstPage(nodes: TreeNode[]): string | undefined {
  for (const n of nodes) {
    if (n.kind === 'page' && n.path) return n.path;
    const inner = n.children && n.kind === 'group' && n.label !== 'Other files' ? firstPage(n.children) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

/** An opened project: fetches it through the core (stored for offline use), shows its tree and the open page. */
export function Workspace({ projectId }: { projectId: string }) {
  const { openPath, openFile, openProject, projects } = useApp();
  const [tree, setTree] = useState<{ nodes: TreeNode[]; error: string | null } | null>(null);
  const [status, setStatus] = useState<string>('Opening...');
  const project = projects.find((p) => p.id === projectId);
  const projectName = project?.name ?? projectId;
  const activity = useActivity((s) => s.activity);
  const openReviewId = useReviews((s) => s.openReviewId);
  const setProposeOpen = useReviews((s) => s.setProposeOpen);
  const diffPath = useChanges((s) => s.diffPath);
  // reviews and builds belong to the project
  useEffect(
    () => () => {
      useReviews.getState().reset();
      useBuilds.getState().reset();
      useChanges.getState().reset();
    },
    [projectId],
  );
  const local = projectId.startsWith('local:');
  const news = useReviewNews(local ? null : projectId);
  const conflicts = useConflicts((s) => s.paths);
  const [refreshMsg, setRefreshMsg] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  /** after a refresh or a resolved merge: the tree and the open page read the store again */
  async function reloadTree() {
    void useChanges.getState().refresh(projectId);
    setTree(await core.workspace.tree.query({ projectId }));
    setReloads((n) => n + 1);
  }
  // after a page was created, renamed, moved or deleted: the tree, the page list and the open page read the store again
  const pageChanges = usePageActions((s) => s.changes);
  useEffect(() => {
    if (pageChanges === 0) return;
    let cancelled = false;
    core.workspace.tree.query({ projectId }).then((t) => {
      if (cancelled) return;
      setTree(t);
      useUi.getState().setPages(pagesOf(t.nodes));
      setReloads((n) => n + 1);
      usePageActions.getState().treeLoaded(pageChanges);
      void useChanges.getState().refresh(projectId);
    }, (err: unknown) => !cancelled && setStatus(errorMessage(err)));
    return () => {
      cancelled = true;
    };
  }, [pageChanges, projectId]);
  async function refresh() {
    setRefreshMsg('Refreshing...');
    try {
      const r = await core.workspace.refresh.mutate({ projectId });
      useConflicts.getState().setPaths(r.conflicts);
      setRefreshMsg(refreshNotice(r) ?? 'Up to date with the server.');
      setStatus(`${useUi.getState().workspace?.ref ?? ''} @ ${r.commitSha.slice(0, 7)}`);
      await reloadTree();
    } catch (err) {
      setRefreshMsg(errorMessage(err));
    }
  }

  // docs.json or a page's frontmatter saved (PageEditor): the tree follows; while the config does
  // not load (half-typed JSON), the last good tree stays with the error shown above it
  const treeEdits = useUi((s) => s.treeEdits);
  const seenTreeEdits = useRef(treeEdits);
  useEffect(() => {
    if (treeEdits === seenTreeEdits.current) return; // opening a project reads its tree itself
    seenTreeEdits.current = treeEdits;
    let cancelled = false;
    core.workspace.tree.query({ projectId }).then(
      (t) => {
        if (cancelled) return;
        setTree((old) => (t.error && old ? { nodes: old.nodes, error: t.error } : t));
        if (!t.error) useUi.getState().setPages(pagesOf(t.nodes));
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [projectId, treeEdits]);

  useEffect(() => {
    let cancelled = false;
    setTree(null);
    useConflicts.getState().setPaths([]);
    core.workspace.open
      .mutate({ projectId })
      .then(async (ws) => {
        const t = await core.workspace.tree.query({ projectId });
        if (cancelled) return;
        setStatus(`${ws.ref} @ ${ws.commitSha.slice(0, 7)}${ws.offline ? ' (offline copy)' : ''}`);
        setTree(t);
        useConflicts.getState().setPaths(ws.conflicts);
        setRefreshMsg(
          ws.refresh ? refreshNotice(ws.refresh) : ws.conflicts.length ? refreshNotice({ updated: [], merged: [], conflicts: ws.conflicts }) : null,
        );
        useUi.getState().setWorkspace({ ref: ws.ref, commitSha: ws.commitSha, offline: ws.offline });
        useUi.getState().setPages(pagesOf(t.nodes));
        void useChanges.getState().refresh(projectId);
        const first = firstPage(t.nodes);
        if (first && !useApp.getState().openPath) openFile(first);
      })
      .catch((err: unknown) => !cancelled && setStatus(errorMessage(err)));
    return () => {
      cancelled = true;
    };
  }, [projectId, openFile]);

  return (
    <div className="workspace with-rail">
      <ActivityRail badges={{ reviews: news.count }} notes={{ reviews: newsDescription(news.count) }} />
      <nav className="side-panel" aria-label="Project">
        <div className="project-head">
          <div className="project-title">
            <button type="button" className="link" onClick={() => openProject(null)} aria-label="All projects">
              ←
            </button>
            <strong title={projectName}>{projectName}</strong>
          </div>
          <div className="project-actions">
            <button
              type="button"
              className="propose-button"
              onClick={() => setProposeOpen(true)}
              disabled={!tree || local}
              aria-describedby={local ? 'propose-local-note' : undefined}
              title={local ? 'A local folder is on no Quire server: there is nothing to propose to.' : undefined}
            >
              Propose changes
            </button>
            {!local && (
              <button type="button" onClick={() => void refresh()} disabled={!tree}>
                Refresh
              </button>
            )}
          </div>
        </div>
        {activity === 'pages' && (
          <>
            <p className="note" aria-live="polite">
              {status}
            </p>
            {local && (
              <p className="note" id="propose-local-note">
                A local folder: edits are saved to its files. Proposing changes needs a project on a Quire server.
              </p>
            )}
            {refreshMsg && (
              <p className="refresh-notice" aria-live="polite">
                {refreshMsg}
              </p>
            )}
            {tree?.error && <p role="alert">The configuration has a problem: {tree.error}</p>}
            {tree && <FileTree nodes={tree.nodes} />}
          </>
        )}
        {activity === 'search' && <SearchPanel projectId={projectId} />}
        {activity === 'changes' && <ChangesPanel projectId={projectId} />}
        {activity === 'reviews' && <ReviewList projectId={projectId} news={news.byReview} />}
        {activity === 'problems' && <p className="note">The problems of the open page are listed under its editor.</p>}
        {activity === 'builds' && <BuildsPanel projectId={projectId} />}
      </nav>
      <div className="editor-area">
        {activity === 'reviews' && openReviewId ? (
          <ReviewView projectId={projectId} reviewId={openReviewId} />
        ) : activity === 'builds' ? (
          <BuildView projectId={projectId} />
        ) : activity === 'changes' && diffPath ? (
          <ChangeDiffView projectId={projectId} path={diffPath} />
        ) : openPath ? (
          conflicts.includes(openPath) ? (
            <MergeView
              key={openPath}
              projectId={projectId}
              path={openPath}
              onResolved={(left) => {
                useConflicts.getState().setPaths(left);
                setRefreshMsg(left.length ? `Merge saved; ${left.length} ${left.length === 1 ? 'page needs' : 'pages need'} a decision.` : 'Merge saved; no page needs a decision.');
                void reloadTree();
              }}
            />
          ) : (
            <PageEditor key={`${openPath}:${reloads}`} projectId={projectId} path={openPath} />
          )
        ) : (
          <p className="note">Choose a page.</p>
        )}
      </div>
      <ProposeDialog projectId={projectId} />
      <PageDialogs projectId={projectId} />
      <StatusBar />
      <CommandPalette />
    </div>
  );
}
