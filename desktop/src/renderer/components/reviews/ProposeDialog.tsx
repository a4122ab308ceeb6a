import { useEffect, useRef, useState } from 'react';
import { core, errorMessage } from '../../trpc';
import { useApp } from '../../store/app-store';
import { useReviews } from '../../store/reviews-slice';
import { useActivity } from '../ActivityRail';
import { reviewsApi } from './api';
import type { Person } from './types';
import './reviews.css';

/** The files of the workspace edited locally (their content differs from the base), from the core's store: works offline. */
function changedFiles(projectId: string): Promise<string[]> {
  return core.workspace.changes.query({ projectId });
}

/** An open review of mine carrying a local edit (core `reviews.inReview`). */
type FileInReview = Awaited<ReturnType<typeof reviewsApi.inReview.query>>[number];

/**
 * "Propose changes" (desktop-look.md "Reviews"): a modal dialog named "Propose changes" with the
 * review's "Title", "Description", the "Reviewers" to ask (people of the organization with the
 * reviewer role or higher, from `reviews.people`, each named with its email) and the "Changed pages" with checkboxes (all
 * checked, but those an open review of mine already carries with this text: "already in review: <title>"
 * beside them). "Open review" calls `reviews.propose`; the core queues it when offline, and the new
 * review opens in the Reviews view at once. When every change is already in review, the dialog says
 * so (a status) instead of offering "Open review"; a file edited since its review was proposed
 * ("in review: <title>, edited since") offers "Update review: <title>" (`reviews.updateChanges`).
 * Escape or "Cancel" closes it.
 */
export function ProposeDialog({ projectId }: { projectId: string }) {
  const open = useReviews((s) => s.proposeOpen);
  const setOpen = useReviews((s) => s.setProposeOpen);
  const { openReview, bump } = useReviews();
  const setActivity = useActivity((s) => s.setActivity);
  const me = useApp((s) => s.session?.user?.email ?? '');
  const ref = useRef<HTMLDialogElement>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [people, setPeople] = useState<Person[] | null>(null);
  const [peopleError, setPeopleError] = useState<string | null>(null);
  const [reviewers, setReviewers] = useState<Set<string>>(new Set());
  const [files, setFiles] = useState<string[] | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [inReview, setInReview] = useState<Map<string, FileInReview>>(new Map());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setError(null);
    setFiles(null);
    Promise.all([changedFiles(projectId), reviewsApi.inReview.query({ projectId })]).then(
      ([paths, carried]) => {
        if (cancelled) return;
        const byPath = new Map(carried.map((f) => [f.path, f]));
        setInReview(byPath);
        setFiles(paths);
        setPicked(new Set(paths.filter((p) => !byPath.get(p)?.same)));
      },
      (err: unknown) => !cancelled && setError(errorMessage(err)),
    );
    reviewsApi.people.query({ projectId }).then(
      (list) => {
        if (cancelled) return;
        setPeople(list.filter((p) => p.email.toLowerCase() !== me.toLowerCase())); // the core lists reviewing roles only
        setPeopleError(null);
      },
      (err: unknown) => !cancelled && setPeopleError(errorMessage(err)),
    );
    return () => {
      cancelled = true;
    };
  }, [open, projectId, me]);

  const toggle = (set: Set<string>, value: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const review = await reviewsApi.propose.mutate({
        projectId,
        title: title.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
        ...(reviewers.size ? { reviewers: [...reviewers] } : {}),
        paths: [...picked],
      });
      setOpen(false);
      setTitle('');
      setDescription('');
      setReviewers(new Set());
      setActivity('reviews');
      openReview(review.id);
      bump();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const update = async (reviewId: string) => {
    setBusy(true);
    setError(null);
    try {
      await reviewsApi.updateChanges.mutate({ projectId, reviewId });
      setOpen(false);
      setActivity('reviews');
      openReview(reviewId);
      bump();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const allInReview = files !== null && files.length > 0 && files.every((p) => inReview.get(p)?.same);
  const editedSince = [...new Map([...inReview.values()].filter((f) => !f.same).map((f) => [f.reviewId, f.title]))];
  const ready = title.trim().length > 0 && picked.size > 0 && !busy && !allInReview;
  return (
    <dialog ref={ref} className="propose-dialog" aria-labelledby="propose-heading" onClose={() => setOpen(false)} onCancel={() => setOpen(false)}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) void submit();
        }}
      >
        <h2 id="propose-heading">Propose changes</h2>
        <label>
          Title
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required autoFocus />
        </label>
        <label>
          Description
          <textarea value={description} onChange={(e) => setDescription(e.target.value)} rows={4} maxLength={20_000} />
        </label>
        <fieldset>
          <legend>Reviewers</legend>
          {people === null && !peopleError && <p className="note">Loading people...</p>}
          {peopleError && <p className="waits">The people of your organization load when the server can be reached ({peopleError}). You can propose without reviewers.</p>}
          {people?.length === 0 && <p className="note">Nobody else in the organization reviews.</p>}
          {people?.map((p) => (
            <label key={p.id} className="check">
              <input type="checkbox" checked={reviewers.has(p.id)} onChange={(e) => setReviewers((s) => toggle(s, p.id, e.target.checked))} />
              {p.name} <span className="muted">{p.email === p.name ? `(${p.role})` : `${p.email} (${p.role})`}</span>
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Changed pages</legend>
          {files === null && !error && <p className="note">Looking for your edits...</p>}
          {files?.length === 0 && <p className="note">You have not changed any file of this project yet.</p>}
          {files?.map((path) => {
            const carried = inReview.get(path);
            return (
              <label key={path} className="check">
                <input type="checkbox" checked={picked.has(path)} onChange={(e) => setPicked((s) => toggle(s, path, e.target.checked))} />
                {path}
                {carried && (
                  <span className="muted in-review">{carried.same ? ` already in review: ${carried.title}` : ` in review: ${carried.title}, edited since`}</span>
                )}
              </label>
            );
          })}
          {allInReview && <p role="status">Every change is already in review: there is nothing new to propose.</p>}
          {editedSince.map(([reviewId, reviewTitle]) => (
            <button key={reviewId} type="button" disabled={busy} onClick={() => void update(reviewId)}>
              Update review: {reviewTitle}
            </button>
          ))}
        </fieldset>
        {error && <p role="alert">{error}</p>}
        <div className="dialog-buttons">
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
          {!allInReview && (
            <button type="submit" className="primary" disabled={!ready}>
              Open review
            </button>
          )}
        </div>
      </form>
    </dialog>
  );
}
