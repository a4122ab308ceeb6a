import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/services/rate-limiter';

const at = Date.parse('2031-01-01T00:00:10Z');

describe('RateLimiter', () => {
  it('counts per bucket and window: over the limit once the window holds more than the limit', () => {
    const limiter = new RateLimiter();
    expect(limiter.hit('ip:a', 2, at)).toMatchObject({ exceeded: false, remaining: 1 });
    expect(limiter.hit('ip:a', 2, at)).toMatchObject({ exceeded: false, remaining: 0 });
    expect(limiter.hit('ip:a', 2, at)).toMatchObject({ exceeded: true, remaining: 0, retryAfter: 50 });
    expect(limiter.hit('ip:b', 2, at).exceeded).toBe(false);
    expect(limiter.hit('ip:a', 2, at + 60_000).exceeded).toBe(false);
  });

  it('stays bounded: past its size the least recently counted bucket is forgotten', () => {
    const limiter = new RateLimiter(2);
    limiter.hit('ip:a', 5, at);
    limiter.hit('ip:a', 5, at);
    limiter.hit('ip:b', 5, at);
    limiter.hit('ip:a', 5, at);
    limiter.hit('ip:c', 5, at);
    // b was counted least recently, so c pushed it out: it starts again at 1; c is still known.
    expect(limiter.hit('ip:b', 5, at).remaining).toBe(4);
    expect(limiter.hit('ip:c', 5, at).remaining).toBe(3);
  });
});
