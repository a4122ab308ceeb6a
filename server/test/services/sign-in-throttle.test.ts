import { describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import { SignInThrottle } from '../../src/services/sign-in-throttle';

describe('sign-in throttle', () => {
  const limits = { perEmail: 3, perIp: 5, windowMs: 60_000 };

  function refusal(fn: () => void): ApiError | undefined {
    try {
      fn();
      return undefined;
    } catch (err) {
      return err as ApiError;
    }
  }

  it('blocks an e-mail after its failures until the window ends, with Retry-After', () => {
    const throttle = new SignInThrottle(limits);
    for (let i = 0; i < 3; i++) throttle.recordFailure('ada@example.com', '10.0.0.1', 1_000);
    const err = refusal(() => throttle.assertAllowed('ada@example.com', '10.0.0.2', 2_000));
    expect(err).toBeInstanceOf(ApiError);
    expect(err?.code).toBe('rate_limited');
    expect(err?.headers?.['Retry-After']).toBe('59');
    expect(refusal(() => throttle.assertAllowed('bob@example.com', '10.0.0.2', 2_000))).toBeUndefined();
    expect(refusal(() => throttle.assertAllowed('ada@example.com', '10.0.0.2', 61_000))).toBeUndefined();
  });

  it('blocks an IP trying many e-mails, and a success clears only the e-mail counter', () => {
    const throttle = new SignInThrottle(limits);
    for (let i = 0; i < 5; i++) throttle.recordFailure(`user${i}@example.com`, '10.0.0.9', 0);
    expect(refusal(() => throttle.assertAllowed('fresh@example.com', '10.0.0.9', 10))?.code).toBe('rate_limited');
    expect(refusal(() => throttle.assertAllowed('fresh@example.com', '10.0.0.10', 10))).toBeUndefined();

    const other = new SignInThrottle(limits);
    for (let i = 0; i < 2; i++) other.recordFailure('ada@example.com', '10.0.0.1', 0);
    other.recordSuccess('ada@example.com');
    other.recordFailure('ada@example.com', '10.0.0.1', 0);
    expect(refusal(() => other.assertAllowed('ada@example.com', '10.0.0.1', 10))).toBeUndefined();
  });
});
