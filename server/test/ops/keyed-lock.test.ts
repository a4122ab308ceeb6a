import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/ops/keyed-lock';

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('KeyedLock', () => {
  it('runs calls with one key one at a time, in call order, even after a failure', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    const first = gate();
    const a = lock.run('merge:p1', async () => {
      order.push('a start');
      await first.promise;
      order.push('a end');
      throw new Error('a failed');
    });
    const b = lock.run('merge:p1', async () => {
      order.push('b');
      return 'b done';
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['a start']);
    first.open();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(order).toEqual(['a start', 'a end', 'b']);
    expect(lock.size).toBe(0);
  });

  it('runs calls with different keys at the same time', async () => {
    const lock = new KeyedLock();
    const first = gate();
    const a = lock.run('sync:one', () => first.promise.then(() => 'a'));
    await expect(lock.run('sync:two', async () => 'b')).resolves.toBe('b');
    first.open();
    await expect(a).resolves.toBe('a');
  });
});
