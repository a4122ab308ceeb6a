import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { checkReviewMove } from '@quire/shared/collab/review-status';
import { errorMessage } from '../../trpc';
import { useApp } from '../../store/app-store';
import { useReviews } from '../../store/reviews-slice';
import { reviewsApi } from './api';
import { CommentThread } from './CommentThread';
import { threadsOf } from './threads';
import { age, statusLabel } from './format';
import { Icon } from './icons';
import { NewComment, type NewCommentInput } from './NewComment';
import { compareChoices, defaultCompareBase, textAtBase } from './compare';
import { RenderedDiff } from './RenderedDiff';
import { changeSetImages, sameImages } from './change-set-images';
import { SourceDiff } from './SourceDiff';
import { ChangeNav, useChangeNav } from './ChangeNav';
import { ReviewFileList } from './ReviewFileList';
import { OpenPreviewLink } from '../OpenPreviewLink';
import { MergeReport } from './MergeReport';
import { BuildProgress } from '../BuildProgress';
import type { MergeConflict, ReviewDetail } from './types';
import './reviews.css';

/** How often an open review is read again from the core (it changes when the outbox syncs), in ms. */
const REFRESH_MS = 4000;

const isPage = (path: string) => /\.mdx?$/i.test(path);
const sameEmail = (a: string | undefined | null, b: string | undefined | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** A pending marker: a clock and the word, for what waits in the outbox. */
export function PendingBadge({ title = 'Waiting to be sent to the server' }: { title?: string }) {
  return (
    <span className="pending-badge" title={title}>
      <Icon name="clock" size={11} /> pending
    </span>
  );
}

/**
 * What a merge refused for a conflict shows: the conflicting files and what to do next (nothing was
 * merged; the author brings the branch in with "Refresh", decides in the merge view, and sends a new
 * revision with "Update review", which needs approving again).
 */
export function MergeConflictNote({ conflict, isAuthor }: { conflict: MergeConflict; isAuthor: boolean }) {
  return (
    <div className="merge-conflict" role="alert" aria-label="Merge conflict">
      <p>
        <strong>Nothing was merged:</strong> these files were also changed on {conflict.branch} since the review was written, in the same places:
      </p>
      <ul>
        {conflict.paths.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
      </ul>
      <p>
        Next step: {isAuthor ? 'choose' : 'the author chooses'} Refresh in the Pages view to bring in the latest {conflict.branch} (pages changed on both
        sides open in the merge view), then Update review to send a new revision. It needs approving again before it can be merged.
      </p>
    </div>
  );
}

/**
 * An open review (desktop-look.md "Reviews"): a header with title, status, author, reviewers, the
 * preview link and the verdict buttons ("Approve", "Request changes": for reviewers, never the
 * author; shown when the review state machine allows the move) and, on an approved review, "Merge"
 * for the roles that merge (a note saying who can for the others; merging needs the server), then
 * the production build a merge started with its progress and the live site's link, then the "Merge report" (MergeReport.tsx),
 * then the changed files (ReviewFileList: line counts, a "Viewed <path>" checkbox kept per revision; a viewed file's diff folds),
 * each as "Rendered diff" (pages) or "Source diff" (an image of the change set: the image itself) with its unchanged parts
 * folded and "Previous change" / "Next change" (Shift+F7 / F7, ChangeNav), with its comment threads beside it. Everything works
 * offline: the core queues comments and verdicts; what needs the server says why it waits.
 */
export function ReviewView({ projectId, reviewId }: { projectId: string; reviewId: string }) {
  const me = useApp((s) => s.session?.user?.email ?? null);
  const syncState = useApp((s) => s.sync);
  const { version, bump, openReview, openReviewPath, openReviewFile, diffMode, setDiffMode, setCommentTarget, commentTarget } = useReviews();
  const [review, setReview] = useState<ReviewDetail | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState<MergeConflict | null>(null);
  const [mergeBuildId, setMergeBuildId] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [compareBase, setCompareBase] = useState<number | null>(null);
  const [viewed, setViewed] = useState<{ key: string; paths: ReadonlySet<string> }>({ key: '', paths: new Set() });
  const [unfolded, setUnfolded] = useState<ReadonlySet<string>>(new Set());
  // the revision I saw on my visit before this one (null: never opened here), by review: "Compare with" starts there
  const [lastVisit, setLastVisit] = useState<{ reviewId: string; revision: number | null } | null>(null);

  useEffect(() => {
    let stop = false;
    const load = () =>
      reviewsApi.get.query({ projectId, reviewId }).then(
        (r) => {
          if (stop) return;
          setReview(r);
          setLoadError(null);
          // opening (and watching) the review is a visit: its news clear; the visit before the first one here is kept for "Compare with"
          reviewsApi.visit.mutate({ projectId, reviewId: r.id }).then(
            ({ previous }) => {
              if (stop) return;
              setLastVisit((v) => (v && (v.reviewId === r.id || v.reviewId === reviewId) ? v : { reviewId: r.id, revision: previous?.revision ?? null }));
              useReviews.getState().bumpNews();
            },
            () => undefined,
          );
          // a review proposed here gets the server's id once synced: follow it (the list marks it open)
          if (r.id !== reviewId) useReviews.setState({ openReviewId: r.id });
        },
        (err: unknown) => !stop && setLoadError(errorMessage(err)),
      );
    void load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      stop = true;
      clearInterval(timer);
    };
  }, [projectId, reviewId, version]);

  // the files marked viewed in the revision shown (kept by the core, also offline)
  const viewedKey = review ? `${review.id}@${review.revision}` : '';
  useEffect(() => {
    if (!review) return;
    let stop = false;
    reviewsApi.viewed.query({ projectId, reviewId: review.id, revision: review.revision }).then(
      (paths) => !stop && setViewed({ key: `${review.id}@${review.revision}`, paths: new Set(paths) }),
      (err: unknown) => !stop && setActionError(errorMessage(err)),
    );
    return () => {
      stop = true;
    };
    // read again for another review or revision only (not each time the review is read again)
  }, [projectId, review?.id, review?.revision]);
  const viewedPaths = viewed.key === viewedKey ? viewed.paths : new Set<string>();
  const markViewed = (path: string, on: boolean) => {
    if (!review) return;
    const key = viewedKey;
    // shown at once (the core keeps it durably in a moment); its answer, or the state before on an error, follows
    const was = viewedPaths;
    setViewed({ key, paths: new Set(on ? [...was, path] : [...was].filter((p) => p !== path)) });
    reviewsApi.setViewed.mutate({ projectId, reviewId: review.id, revision: review.revision, path, viewed: on }).then(
      (paths) => setViewed({ key, paths: new Set(paths) }),
      (err: unknown) => {
        setViewed({ key, paths: was });
        setActionError(errorMessage(err));
      },
    );
    if (!on) setUnfolded((u) => new Set([...u].filter((p) => p !== path)));
  };

  const file = useMemo(() => review?.files.find((f) => f.path === openReviewPath) ?? review?.files[0] ?? null, [review, openReviewPath]);
  // the threads of the file shown, after those on the whole review
  const fileComments = useMemo(() => (review && file ? review.comments.filter((c) => c.path === file.path || c.path === null) : []), [review, file]);
  const threads = useMemo(() => threadsOf(fileComments), [fileComments]);
  // the same map while the review's images stay the same, so a refresh of the review does not render the diff again
  const imagesRef = useRef<ReadonlyMap<string, string>>(new Map());
  const images = useMemo(() => {
    const next = changeSetImages(review?.files ?? []);
    if (!sameImages(imagesRef.current, next)) imagesRef.current = next;
    return imagesRef.current;
  }, [review]);
  const commentedLines = useMemo(() => threads.map((t) => t[0]!.lineStart).filter((n): n is number => n !== null), [threads]);

  const act = useCallback(
    async (what: () => Promise<unknown>) => {
      setBusy(true);
      setActionError(null);
      try {
        await what();
      } catch (err) {
        setActionError(errorMessage(err));
      } finally {
        setBusy(false);
        bump();
      }
    },
    [bump],
  );

  const merge = () =>
    act(async () => {
      setConflict(null);
      const outcome = await reviewsApi.merge.mutate({ projectId, reviewId });
      if (outcome.merged) setMergeBuildId(outcome.buildId);
      else setConflict(outcome.conflict);
    });

  const folded = !!file && viewedPaths.has(file.path) && !unfolded.has(file.path);
  // a folded diff has no changes to step to
  const nav = useChangeNav(`${file?.path ?? ''}|${diffMode}|${compareBase ?? ''}|${review?.revision ?? 0}|${folded}`);

  if (loadError && !review) return <p role="alert">This review cannot be opened: {loadError}</p>;
  if (!review) return <p className="note">Opening the review...</p>;

  const isAuthor = sameEmail(review.author?.email, me);
  // the verdicts are a reviewer's (never the author's); a role that may not review is refused by the server, with its reason shown
  const mayReview = !isAuthor;
  const canApprove = mayReview && checkReviewMove(review.status, 'approved', { isAuthor }) === null;
  const canRequest = mayReview && checkReviewMove(review.status, 'changes_requested', { isAuthor }) === null;
  const finished = review.status === 'merged' || review.status === 'closed';
  const offline = syncState === 'offline';
  const mergeable = review.status === 'approved' && !review.localOnly;
  const buildId = mergeBuildId ?? review.mergeBuildId;
  const commentBlock = finished ? `This review is ${statusLabel(review.status).toLowerCase()}; it takes no more comments.` : null;
  const mode = file && isPage(file.path) && file ? diffMode : 'source';

  const comment = (input: NewCommentInput & { parentId?: string }) => reviewsApi.comment.mutate({ projectId, reviewId, ...input }).then(() => bump());
  const resolve = (commentId: string, resolved: boolean) => reviewsApi.resolveThread.mutate({ projectId, reviewId, commentId, resolved }).then(() => bump());
  const applySuggestions = (commentIds: string[]) =>
    reviewsApi.applySuggestions.mutate({ projectId, reviewId, commentIds }).then(() => {
      setSelected(new Set());
      bump();
    });
  const choices = compareChoices(review);
  const visited = lastVisit?.reviewId === review.id ? lastVisit.revision : null;
  const base = compareBase !== null && choices.some((c) => c.value === compareBase) ? compareBase : defaultCompareBase(review, visited);
  const before = file ? textAtBase(review, file, base) : null;
  const selectable = [...selected].filter((id) => review.comments.some((c) => c.id === id && c.suggestion && !c.suggestion.applied));

  return (
    <section className="review-view" aria-label={`Review: ${review.title}`}>
      <header className="review-header">
        <div className="review-title-row">
          <button type="button" className="link" onClick={() => openReview(null)} aria-label="Close review">
            ←
          </button>
          <h2>{review.title}</h2>
          <span className={`status-chip status-${review.status}`}>{statusLabel(review.status)}</span>
          {review.pending && <PendingBadge />}
        </div>
        <p className="review-meta">
          <span>
            by <strong>{review.author?.name ?? 'a deleted user'}</strong>, {age(review.createdAt)}
          </span>
          <span>
            Reviewers: {review.reviewers.length ? review.reviewers.map((r) => r.name).join(', ') : 'none asked'}
          </span>
          <span>Revision {review.revision}</span>
          <span className={review.unresolvedCount > 0 ? 'unresolved-count' : 'muted'}>{review.unresolvedCount} unresolved</span>
          {review.localOnly ? (
            <span className="waits">The preview link appears once the server has this review (it waits in the outbox).</span>
          ) : review.previewUrl && review.previewBuildId ? (
            <OpenPreviewLink projectId={projectId} url={review.previewUrl}>
              Open preview
            </OpenPreviewLink>
          ) : (
            <span className="waits">The server is building the preview; its link appears here when ready.</span>
          )}
        </p>
        {review.description && <p className="review-description">{review.description}</p>}
        {review.problem && (
          <p className="review-problem" role="alert">
            The server refused a change of this review: {review.problem}
          </p>
        )}
        <div className="review-actions">
          {canApprove && (
            <button type="button" className="primary" disabled={busy} onClick={() => void act(() => reviewsApi.approve.mutate({ projectId, reviewId }))}>
              Approve
            </button>
          )}
          {canRequest && (
            <button type="button" disabled={busy} onClick={() => void act(() => reviewsApi.requestChanges.mutate({ projectId, reviewId }))}>
              Request changes
            </button>
          )}
          {mergeable && review.mergeBlock === null && (
            <button
              type="button"
              className="primary"
              disabled={busy || offline}
              aria-describedby={offline ? 'merge-offline-note' : undefined}
              onClick={() => void merge()}
              title={`Merges the approved changes into ${review.branch} and publishes them`}
            >
              Merge
            </button>
          )}
          {mergeable && review.mergeBlock !== null && (
            <span className="note" role="note" aria-label="Why this review cannot be merged">
              {review.mergeBlock}
            </span>
          )}
          {isAuthor && !finished && (
            <button type="button" disabled={busy} onClick={() => void act(() => reviewsApi.updateChanges.mutate({ projectId, reviewId }))} title="Sends your latest edits of these pages as a new revision">
              Update review
            </button>
          )}
          {offline && <span className="waits">Offline: what you do here is kept and sent when the server can be reached.</span>}
          {offline && mergeable && review.mergeBlock === null && (
            <span className="waits" id="merge-offline-note">
              Merging needs the server: it waits until the server can be reached.
            </span>
          )}
        </div>
        {actionError && <p role="alert">{actionError}</p>}
        {conflict && review.status === 'approved' && <MergeConflictNote conflict={conflict} isAuthor={isAuthor} />}
        {review.status === 'merged' && (
          <div className="merge-result" aria-label="Merge">
            <p className="note">
              Merged into {review.branch}
              {review.mergeCommit ? ` as commit ${review.mergeCommit.slice(0, 7)}` : ''}.
            </p>
            {buildId && <BuildProgress projectId={projectId} buildId={buildId} label="Production build" />}
          </div>
        )}
      </header>

      <MergeReport projectId={projectId} reviewId={review.id} revisionKey={`${review.revision}:${review.changes.length}:${review.pending}:${version}`} />

      <ReviewFileList
        files={review.files.map((f) => ({ ...f, before: textAtBase(review, f, base) }))}
        openPath={file?.path ?? null}
        viewed={viewedPaths}
        onOpen={openReviewFile}
        onViewed={markViewed}
      />

      {file && (
        <div className="review-body">
          <div className="review-diff">
            <div className="diff-modes" role="group" aria-label="Diff mode">
              {isPage(file.path) && (
                <button type="button" aria-pressed={mode === 'rendered'} onClick={() => setDiffMode('rendered')}>
                  Rendered diff
                </button>
              )}
              <button type="button" aria-pressed={mode === 'source'} onClick={() => setDiffMode('source')}>
                Source diff
              </button>
              <label className="compare-with">
                Compare with{' '}
                <select aria-label="Compare with" value={base} onChange={(e) => setCompareBase(Number(e.target.value))}>
                  {choices.map((c) => (
                    <option key={c.value} value={c.value}>
                      {c.label}
                    </option>
                  ))}
                </select>
              </label>
              {!folded && <ChangeNav nav={nav} />}
            </div>
            {folded ? (
              <div className="viewed-fold">
                <p className="note">You marked {file.path} viewed: its diff is folded.</p>
                <button type="button" onClick={() => setUnfolded((u) => new Set([...u, file.path]))}>
                  Show diff
                </button>
              </div>
            ) : mode === 'rendered' ? (
              <RenderedDiff
                projectId={projectId}
                path={file.path}
                before={before}
                after={file.after}
                images={images}
                onChanges={nav.setCount}
                goTo={nav.target}
                onStepKey={(step) => nav.step(step, true)}
              />
            ) : images.has(file.path) ? (
              <figure className="review-image">
                <img className="change-thumbnail" src={images.get(file.path)} alt={`The image ${file.path}`} />
                <figcaption className="note">
                  {file.change === 'added' ? 'Added image' : 'The new version of this image'}: a binary file has no lines to compare.
                </figcaption>
              </figure>
            ) : (
              <SourceDiff
                path={file.path}
                before={before}
                after={file.after}
                commentedLines={commentedLines}
                target={commentTarget}
                onPickLines={(lineStart, lineEnd) => setCommentTarget({ path: file.path, lineStart, lineEnd })}
                onChanges={nav.setCount}
                goTo={nav.target}
              />
            )}
          </div>
          <aside className="review-threads" aria-label="Comments">
            <NewComment path={file.path} text={file.after ?? file.before ?? ''} onSubmit={comment} disabledReason={commentBlock} />
            {isAuthor && selectable.length > 0 && (
              <button type="button" className="primary" aria-label="Apply selected suggestions" disabled={busy} onClick={() => void act(() => applySuggestions(selectable))}>
                Apply selected suggestions ({selectable.length})
              </button>
            )}
            {threads.length === 0 ? (
              <p className="note">No comments on this file or the review yet.</p>
            ) : (
              threads.map((t) => (
                <CommentThread
                  key={t[0]!.id}
                  comments={t}
                  disabledReason={commentBlock}
                  onReply={(body, parentId) => comment({ body, parentId })}
                  onResolve={(resolved) => resolve(t[0]!.id, resolved)}
                  suggestion={{
                    canApply: isAuthor && !finished,
                    selected: selected.has(t[0]!.id),
                    onSelect: (on) => {
                      const next = new Set(selected);
                      if (on) next.add(t[0]!.id);
                      else next.delete(t[0]!.id);
                      setSelected(next);
                    },
                    onApply: () => applySuggestions([t[0]!.id]),
                  }}
                />
              ))
            )}
          </aside>
        </div>
      )}
    </section>
  );
}
