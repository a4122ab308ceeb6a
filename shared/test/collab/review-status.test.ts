import { describe, expect, it } from 'vitest';
import { checkReviewMove, nextReviewStatuses, REVIEW_STATUSES, type ReviewStatus } from '../../src/collab/review-status';

// Written out by hand from decisions.md section 9, not derived from the module's table.
const byReviewer: Record<ReviewStatus, ReviewStatus[]> = {
  open: ['changes_requested', 'approved', 'closed'],
  changes_requested: ['approved', 'closed'],
  approved: ['changes_requested', 'merged', 'closed'],
  merged: [],
  closed: ['open'],
};
const byAuthor: Record<ReviewStatus, ReviewStatus[]> = {
  open: ['closed'],
  changes_requested: ['open', 'closed'],
  approved: ['open', 'merged', 'closed'],
  merged: [],
  closed: ['open'],
};

describe('review moves', () => {
  for (const from of REVIEW_STATUSES) {
    for (const to of REVIEW_STATUSES) {
      for (const [who, allowed] of [['a reviewer', byReviewer], ['the author', byAuthor]] as const) {
        const ok = allowed[from].includes(to);
        it(`${ok ? 'lets' : 'refuses'} ${who} move ${from} -> ${to}`, () => {
          const refusal = checkReviewMove(from, to, { isAuthor: who === 'the author' });
          if (ok) expect(refusal).toBeNull();
          else {
            expect(refusal).not.toBeNull();
            expect(refusal!.message).toContain(`"${from}"`);
            expect(refusal!.message).toContain(`"${to}"`);
          }
        });
      }
    }
  }

  it('refuses the author approving their own review as forbidden, and an impossible move as a conflict', () => {
    expect(checkReviewMove('open', 'approved', { isAuthor: true })?.code).toBe('forbidden');
    expect(checkReviewMove('merged', 'open', { isAuthor: false })).toMatchObject({ code: 'conflict', message: expect.stringMatching(/merged review is final/) });
    expect(checkReviewMove('open', 'merged', { isAuthor: false })?.code).toBe('conflict');
  });

  it('lists the next statuses for the buttons a person may press', () => {
    expect(nextReviewStatuses('open', { isAuthor: false })).toEqual(['changes_requested', 'approved', 'closed']);
    expect(nextReviewStatuses('changes_requested', { isAuthor: true })).toEqual(['open', 'closed']);
  });
});
