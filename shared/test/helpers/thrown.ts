import { DocsError } from '../../src/docs/types';

/** Runs `fn` and returns the DocsError it throws; fails the test when it throws nothing or something else. */
export function thrown(fn: () => unknown): DocsError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DocsError) return err;
    throw err;
  }
  throw new Error('expected a DocsError');
}
