import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../trpc';
import { age, linesLabel } from './format';
import { Icon } from './icons';
import { SuggestionBlock } from './SuggestionBlock';
import type { LocalComment } from './types';
import { findMentions } from '@quire/shared/collab/mentions';

/** Props of {@link CommentThread}. */
export interface CommentThreadProps {
  /** the first comment, then its replies in time order */
  comments: LocalComment[];
  /** writes a reply (queued by the core when offline) */
  onReply(body: string, parentId: string): Promise<void>;
  /** why replies cannot be written now, or null */
  disabledReason: string | null;
  /** resolves (true) or opens again (false) the thread (queued by the core when offline) */
  onResolve(resolved: boolean): Promise<void>;
  /** the suggestion of the thread, when it has one: who may apply it, whether it is selected, and the actions */
  suggestion?: { canApply: boolean; selected: boolean; onSelect(selected: boolean): void; onApply(): Promise<void> };
}

/** The marker of a comment: a clock while it waits in the outbox, the reason when the server refused it. */
function CommentState({ comment }: { comment: LocalComment }) {
  if (comment.problem)
    return (
      <p className="comment-problem" role="note">
        The server refused this comment: {comment.problem} It is kept here.
      </p>
    );
  if (comment.pending)
    return (
      <span className="pending-badge" title="Waiting to be sent to the server">
        <Icon name="clock" size={11} /> pending
      </span>
    );
  return null;
}

/**
 * One comment thread (an `article` named "Thread on line N", or "Review comment" when it is on the
 * whole review): the first comment and its replies, each with author, age, an "Outdated" badge when
 * the lines read otherwise now, a clock until synced and the refusal reason when refused; a suggested
 * change as a diff with "Apply suggestion"; "Resolve" / "Unresolve"; a "Reply" box. A resolved thread
 * folds to its header ("Show thread" opens it).
 */
export function CommentThread({ comments, onReply, disabledReason, onResolve, suggestion }: CommentThreadProps) {
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [unfolded, setUnfolded] = useState(false);
  const root = comments[0]!;
  const where = root.lineStart !== null && root.lineEnd !== null ? linesLabel(root.lineStart, root.lineEnd) : null;
  const name = where ? `Thread on ${where}` : 'Review comment';
  const folded = root.resolved && !unfolded;

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const send = () =>
    run(async () => {
      if (!reply.trim()) return;
      await onReply(reply.trim(), root.id);
      setReply('');
    });

  return (
    <article className={`thread${root.resolved ? ' is-resolved' : ''}`} aria-label={name}>
      <header className="thread-head">
        <span>{where ? where[0]!.toUpperCase() + where.slice(1) : 'On the whole review'}</span>
        {root.outdated && (
          <span className="outdated-badge" title="The commented lines read otherwise in the current revision">
            Outdated
          </span>
        )}
        {root.resolved && <span className="resolved-badge">Resolved{root.resolvedBy ? ` by ${root.resolvedBy.name}` : ''}</span>}
        {root.resolved && (
          <button type="button" className="link" aria-expanded={!folded} onClick={() => setUnfolded(!unfolded)}>
            {folded ? 'Show thread' : 'Hide thread'}
          </button>
        )}
        {!disabledReason && (
          <button type="button" disabled={busy} onClick={() => void run(() => onResolve(!root.resolved))}>
            {root.resolved ? 'Unresolve' : 'Resolve'}
          </button>
        )}
      </header>
      {!folded && (
        <>
          <ol className="thread-comments">
            {comments.map((c) => (
              <li key={c.id} className={`comment${c.pending ? ' is-pending' : ''}${c.problem ? ' is-refused' : ''}`}>
                <div className="comment-meta">
                  <strong>{c.author?.name ?? 'Deleted user'}</strong>
                  <span className="muted">{age(c.createdAt)}</span>
                  <CommentState comment={c} />
                </div>
                <p className="comment-body">
                  <CommentBody body={c.body} mentions={c.mentions ?? []} />
                </p>
                {c === root && root.suggestion && suggestion && (
                  <SuggestionBlock
                    comment={root}
                    canApply={suggestion.canApply && !disabledReason}
                    selected={suggestion.selected}
                    onSelect={suggestion.onSelect}
                    onApply={() => void run(suggestion.onApply)}
                    busy={busy}
                  />
                )}
              </li>
            ))}
          </ol>
          <form
            className="reply-form"
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            <textarea aria-label="Reply" rows={2} value={reply} placeholder="Reply..." onChange={(e) => setReply(e.target.value)} disabled={!!disabledReason} />
            <button type="submit" disabled={busy || !reply.trim() || !!disabledReason}>
              Reply
            </button>
          </form>
        </>
      )}
      {error && <p role="alert">{error}</p>}
    </article>
  );
}

/**
 * A comment's text with the members it mentions (`@email`, `@display name`: shared/src/collab/mentions.ts) marked, each titled
 * with the member's name and e-mail.
 */
export function CommentBody({ body, mentions }: { body: string; mentions: ReadonlyArray<{ id: string; name: string; email: string }> }) {
  const found = findMentions(body, mentions);
  if (found.length === 0) return <>{body}</>;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of found) {
    const who = mentions.find((p) => p.id === m.userId)!;
    parts.push(body.slice(at, m.start));
    parts.push(
      <strong key={m.start} className="mention" title={`${who.name} <${who.email}>`}>
        {body.slice(m.start, m.end)}
      </strong>,
    );
    at = m.end;
  }
  parts.push(body.slice(at));
  return <>{parts}</>;
}
