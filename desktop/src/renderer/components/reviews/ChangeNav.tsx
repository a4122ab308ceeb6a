import { useCallback, useEffect, useRef, useState } from 'react';
import { changeAnnouncement, stepChange, type ChangeTarget } from './diff-nav';

/** What {@link useChangeNav} answers: the changes of the diff shown and where the review moved among them. */
export interface ChangeNavState {
  /** how many changed blocks the diff shown has (0 until it told) */
  count: number;
  /** the change moved to last, or null (none yet in this diff) */
  target: ChangeTarget | null;
  /** the diff shown tells how many changes it has */
  setCount(count: number): void;
  /** moves to the next (1) or previous (-1) change, wrapping around; `focus` moves the keyboard focus there too */
  step(direction: 1 | -1, focus: boolean): void;
}

/**
 * The change navigation of one diff, identified by `key` (file, diff mode and base): a new key starts
 * again before the first change. F7 / Shift+F7 anywhere in the window step and move the focus (caught
 * before the editors, whose own F7 opens another viewer).
 */
export function useChangeNav(key: string): ChangeNavState {
  const [state, setState] = useState<{ key: string; count: number; target: ChangeTarget | null }>({ key, count: 0, target: null });
  const keyRef = useRef(key);
  keyRef.current = key;
  const current = state.key === key ? state : { key, count: 0, target: null };

  const setCount = useCallback((count: number) => {
    setState((s) => (s.key === keyRef.current ? { ...s, count } : { key: keyRef.current, count, target: null }));
  }, []);
  const step = useCallback((direction: 1 | -1, focus: boolean) => {
    setState((s) => {
      const cur = s.key === keyRef.current ? s : { key: keyRef.current, count: 0, target: null };
      const index = stepChange(cur.target?.index ?? -1, cur.count, direction);
      return index < 0 ? cur : { ...cur, target: { index, focus, seq: (cur.target?.seq ?? 0) + 1 } };
    });
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'F7' || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      e.stopPropagation();
      step(e.shiftKey ? -1 : 1, true);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [step]);

  return { count: current.count, target: current.target, setCount, step };
}

/**
 * The buttons "Previous change" and "Next change" (also Shift+F7 / F7) above a diff, and a live
 * region announcing where the review moved ("Change 3 of 7"; before any move, how many changes there are).
 */
export function ChangeNav({ nav }: { nav: ChangeNavState }) {
  const where = nav.target ? changeAnnouncement(nav.target.index, nav.count) : nav.count > 0 ? `${nav.count} change${nav.count === 1 ? '' : 's'}` : '';
  return (
    <span className="change-nav" role="group" aria-label="Changes">
      <button type="button" disabled={nav.count === 0} onClick={() => nav.step(-1, false)} title="Previous change (Shift+F7)" aria-keyshortcuts="Shift+F7">
        Previous change
      </button>
      <button type="button" disabled={nav.count === 0} onClick={() => nav.step(1, false)} title="Next change (F7)" aria-keyshortcuts="F7">
        Next change
      </button>
      <span className="change-position" aria-live="polite">
        {where}
      </span>
    </span>
  );
}
