import { describe, expect, it } from 'vitest';
import { approvalStatusAfter, checkApprovalMove, type ApprovalActor } from '../../src/collab/approval-status';

const eligible: ApprovalActor = { isAuthor: false, isEligible: true, hasApproved: false };
const author: ApprovalActor = { isAuthor: true, isEligible: true, hasApproved: false };
const outsider: ApprovalActor = { isAuthor: false, isEligible: false, hasApproved: false };
const approvedOnce: ApprovalActor = { isAuthor: false, isEligible: true, hasApproved: true };

describe('approval moves from pending', () => {
  it('lets an eligible person who is not the author approve, once', () => {
    expect(checkApprovalMove('pending', 'approve', eligible)).toBeNull();
    expect(checkApprovalMove('pending', 'approve', approvedOnce)).toMatchObject({ code: 'conflict', message: expect.stringMatching(/distinct/) });
  });

  it('never lets the author approve, even when eligible', () => {
    expect(checkApprovalMove('pending', 'approve', author)).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/author/) });
  });

  it('refuses a person who is not eligible', () => {
    expect(checkApprovalMove('pending', 'approve', outsider)).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/not eligible/) });
    expect(checkApprovalMove('pending', 'reject', outsider)).toMatchObject({ code: 'forbidden' });
  });

  it('lets an eligible person or the author reject, and the system close', () => {
    expect(checkApprovalMove('pending', 'reject', eligible)).toBeNull();
    expect(checkApprovalMove('pending', 'reject', { ...author, isEligible: false })).toBeNull();
    expect(checkApprovalMove('pending', 'close', outsider)).toBeNull();
  });
});

describe('approval moves from a decided status', () => {
  for (const from of ['approved', 'rejected'] as const) {
    for (const action of ['approve', 'reject', 'close'] as const) {
      it(`refuses ${action} on an ${from} approval with 409 naming both states`, () => {
        const refusal = checkApprovalMove(from, action, eligible);
        expect(refusal?.code).toBe('conflict');
        expect(refusal?.message).toContain(`"${from}"`);
        expect(refusal?.message).toContain(action === 'approve' ? '"approved"' : '"rejected"');
      });
    }
  }
});

describe('status after a move', () => {
  it('stays pending until the required count of approvals, then approved', () => {
    expect(approvalStatusAfter('approve', 1, 2)).toBe('pending');
    expect(approvalStatusAfter('approve', 2, 2)).toBe('approved');
    expect(approvalStatusAfter('approve', 1, 1)).toBe('approved');
  });

  it('is rejected after a reject or a close', () => {
    expect(approvalStatusAfter('reject', 0, 2)).toBe('rejected');
    expect(approvalStatusAfter('close', 1, 2)).toBe('rejected');
  });
});
