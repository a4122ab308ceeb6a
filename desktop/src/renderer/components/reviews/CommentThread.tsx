import { useState } from 'react';
import { errorMessage } from '../../trpc';
import { age, linesLabel } from './format';
import { Icon } from './icons';
import type { LocalComment } from './types';

/** Props of {@link CommentThread}. */
export interface CommentThreadProps {
  /** the first comment, then its replies in time order */
  comments: LocalComment[];
  /** writes a reply (queued by the core when offline) */
  onReply(body: string, parentId: string): Promise<void>;
  /** why replies cannot be written now, or null */
  disabledReason: string | null;
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
 * One comment thread on lines of a changed file (an `article` named "Thread on line N"): the first
 * comment and its replies, each with author, age, an "Outdated" badge when the lines read otherwise
 * now, a clock until synced and the refusal reason when refused; a "Reply" box.
 */
export function CommentThread({ comments, onReply, disabledReason }: CommentThreadProps) {
  const [reply, setReply] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const root = comments[0]!;
  const where = linesLabel(root.lineStart, root.lineEnd);

  const send = async () => {
    if (!reply.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onReply(reply.trim(), root.id);
      setReply('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className="thread" aria-label={`Thread on ${where}`}>
      <header className="thread-head">
        <span>{where[0]!.toUpperCase() + where.slice(1)}</span>
        {root.outdated && (
          <span className="outdated-badge" title="The commented lines read otherwise in the current revision">
            Outdated
          </span>
        )}
      </header>
      <ol className="thread-comments">
        {comments.map((c) => (
          <li key={c.id} className={`comment${c.pending ? ' is-pending' : ''}${c.problem ? ' is-refused' : ''}`}>
            <div className="comment-meta">
              <strong>{c.author?.name ?? 'Deleted user'}</strong>
              <span className="muted">{age(c.createdAt)}</span>
              <CommentState comment={c} />
            </div>
            <p className="comment-body">{c.body}</p>
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
      {error && <p role="alert">{error}</p>}
    </article>
  );
}
