import { describe, expect, it } from 'vitest';
import {
  actionOfStatus,
  checkReviewAction,
  endedReviewRefusal,
  isCommentOutdated,
  mergePage,
  staleRevisionRefusal,
} from '../../src/sync/conflicts';

describe('rule 1: a review merged or closed meanwhile', () => {
  it('refuses a comment on a merged review, naming who merged it and when, and says the text was kept', () => {
    const refusal = endedReviewRefusal('comment', { status: 'merged', endedBy: 'Ana', endedAt: '2026-05-01T14:02:09.000Z' });
    expect(refusal).toEqual({
      code: 'conflict',
      rule: 'review_ended',
      message: 'The review was merged by Ana at 2026-05-01 14:02 UTC; your comment was kept on this device and not posted.',
    });
  });

  it('refuses approvals and change requests on a closed review', () => {
    expect(endedReviewRefusal('approve', { status: 'closed', endedBy: 'Bo', endedAt: '2026-05-01T09:30:00.000Z' })?.message).toBe(
      'The review was closed by Bo at 2026-05-01 09:30 UTC; your approval was kept on this device and not applied.',
    );
    expect(endedReviewRefusal('request_changes', { status: 'closed' })?.message).toMatch(/^The review was closed; your change request/);
  });

  it('lets actions on reviews still under review through', () => {
    for (const status of ['open', 'approved', 'changes_requested'] as const) expect(endedReviewRefusal('comment', { status })).toBeNull();
  });
});

describe('rule 2: approving an older revision', () => {
  it('refuses an approval of a revision older than the current one', () => {
    const refusal = staleRevisionRefusal('approve', 1, 2);
    expect(refusal?.rule).toBe('stale_revision');
    expect(refusal?.message).toMatch(/changed since you reviewed it \(you saw revision 1, it is now at revision 2\)/);
  });

  it('accepts an approval of the current revision, and change requests and comments on any', () => {
    expect(staleRevisionRefusal('approve', 2, 2)).toBeNull();
    expect(staleRevisionRefusal('request_changes', 1, 3)).toBeNull();
    expect(staleRevisionRefusal('comment', 1, 3)).toBeNull();
  });

  it('checks the ended review first', () => {
    expect(checkReviewAction('approve', 1, { status: 'merged', revision: 3 })?.rule).toBe('review_ended');
    expect(checkReviewAction('approve', 1, { status: 'open', revision: 3 })?.rule).toBe('stale_revision');
    expect(checkReviewAction('approve', 3, { status: 'open', revision: 3 })).toBeNull();
  });

  it('maps status moves to the actions the rules judge', () => {
    expect(actionOfStatus('approved')).toBe('approve');
    expect(actionOfStatus('changes_requested')).toBe('request_changes');
    expect(actionOfStatus('closed')).toBeNull();
  });
});

describe('rule 3: comments on lines that changed', () => {
  const text = 'one\ntwo\nthree\n';
  it('is current while the lines read the same, even when other lines moved them', () => {
    expect(isCommentOutdated('two', text, 2, 2)).toBe(false);
    expect(isCommentOutdated('two\nthree', 'one\r\ntwo\r\nthree', 2, 3)).toBe(false);
  });

  it('is outdated when the lines read otherwise, are past the end, or the file is gone', () => {
    expect(isCommentOutdated('two', 'one\n2\nthree', 2, 2)).toBe(true);
    expect(isCommentOutdated('two', 'one', 2, 2)).toBe(true);
    expect(isCommentOutdated('two', null, 2, 2)).toBe(true);
  });
});

describe('rule 4: mergePage', () => {
  const base = '# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.\n';

  it('takes the other side when only one side changed, and either when both made the same change', () => {
    const local = base.replace('First', 'Opening');
    expect(mergePage(base, local, base)).toEqual({ merged: local });
    expect(mergePage(base, base, local)).toEqual({ merged: local });
    expect(mergePage(base, local, local)).toEqual({ merged: local });
  });

  it('merges changes to different parts of the page', () => {
    const local = base.replace('First paragraph.', 'First paragraph, edited offline.');
    const remote = base.replace('Third paragraph.', 'Third paragraph, edited on the server.');
    expect(mergePage(base, local, remote)).toEqual({
      merged: '# Title\n\nFirst paragraph, edited offline.\n\nSecond paragraph.\n\nThird paragraph, edited on the server.\n',
    });
  });

  it('keeps CRLF line endings', () => {
    const crlf = base.replace(/\n/g, '\r\n');
    const result = mergePage(crlf, crlf.replace('First', 'Opening'), crlf.replace('Third', 'Closing'));
    expect(result).toEqual({ merged: crlf.replace('First', 'Opening').replace('Third', 'Closing') });
  });

  it('gives the regions of a real conflict, with each side and the base, for the merge view', () => {
    const local = base.replace('Second paragraph.', 'Second paragraph, mine.');
    const remote = base.replace('Second paragraph.', 'Second paragraph, theirs.');
    const result = mergePage(base, local, remote);
    expect(result).toEqual({
      conflict: true,
      regions: [
        { conflict: false, text: '# Title\n\nFirst paragraph.\n\n' },
        { conflict: true, base: 'Second paragraph.\n', local: 'Second paragraph, mine.\n', remote: 'Second paragraph, theirs.\n' },
        { conflict: false, text: '\nThird paragraph.\n' },
      ],
    });
  });
});
