import { describe, expect, it } from 'vitest';
import { ApiError } from '@quire/shared/errors';
import { SignInThrottle } from '../../src/services/sign-in-throttle';
import { MemoryFailureCounts } from '../../src/services/failure-throttle';

describe('sign-in throttle', () => {
  const limits = { per: { email: 3, ip: 5 }, windowMs: 60_000 };
  const throttle = () => new SignInThrottle(new MemoryFailureCounts(), limits);

  async function refusal(attempt: Promise<void>): Promise<ApiError | undefined> {
    try {
      await attempt;
      return undefined;
    } catch (err) {
      return err as ApiError;
    }
  }

  it('blocks an e-mail after its failures until the window ends, with Retry-After', async () => {
    const t = throttle();
    for (let i = 0; i < 3; i++) await t.attempt('ada@example.com', '10.0.0.1', 1_000);
    const err = await refusal(t.attempt('ada@example.com', '10.0.0.2', 2_000));
    expect(err).toBeInstanceOf(ApiError);
    expect(err?.code).toBe('rate_limited');
    expect(err?.headers?.['Retry-After']).toBe('59');
    expect(await refusal(t.attempt('bob@example.com', '10.0.0.2', 2_000))).toBeUndefined();
    expect(await refusal(t.attempt('ada@example.com', '10.0.0.2', 61_000))).toBeUndefined();
  });

  it('blocks an IP trying many e-mails, and a success clears only the e-mail counter', async () => {
    const t = throttle();
    for (let i = 0; i < 5; i++) await t.attempt(`user${i}@example.com`, '10.0.0.9', 0);
    expect((await refusal(t.attempt('fresh@example.com', '10.0.0.9', 10)))?.code).toBe('rate_limited');
    expect(await refusal(t.attempt('fresh@example.com', '10.0.0.10', 10))).toBeUndefined();

    const other = throttle();
    await other.attempt('ada@example.com', '10.0.0.1', 0);
    await other.attempt('ada@example.com', '10.0.0.1', 0);
    await other.attempt('ada@example.com', '10.0.0.1', 0);
    await other.recordSuccess('ada@example.com', '10.0.0.1', 0);
    // without the success, this would be the fourth failure of three allowed
    await other.attempt('ada@example.com', '10.0.0.1', 0);
    expect(await refusal(other.attempt('ada@example.com', '10.0.0.1', 10))).toBeUndefined();
  });

  it('counts an attempt when it starts, so concurrent guesses are refused past the limit; a success takes its count back from the IP', async () => {
    const t = throttle();
    const results = await Promise.all(Array.from({ length: 8 }, () => refusal(t.attempt('ada@example.com', '10.0.0.1', 0))));
    expect(results.filter((r) => r === undefined)).toHaveLength(3);
    expect(results.filter((r) => r?.code === 'rate_limited')).toHaveLength(5);

    // five right passwords of five people behind one address do not use up the address
    const office = throttle();
    for (let i = 0; i < 5; i++) {
      await office.attempt(`user${i}@example.com`, '10.0.0.7', 0);
      await office.recordSuccess(`user${i}@example.com`, '10.0.0.7', 0);
    }
    expect(await refusal(office.attempt('user5@example.com', '10.0.0.7', 0))).toBeUndefined();
  });
});
