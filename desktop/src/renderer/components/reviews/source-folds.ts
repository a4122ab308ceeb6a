import { unfoldLabel } from './diff-nav';

/**
 * Names the controls of Monaco's folded unchanged regions in a source diff (its `hideUnchangedRegions`
 * widget draws an unnamed icon, titled "Show Unchanged Region", on both sides). On the new side each
 * becomes a keyboard-reachable button named by {@link unfoldLabel} ("Show 42 unchanged lines", the
 * count read from the widget's "42 hidden lines"); the old side's twin is hidden from assistive
 * technology so that each fold has one button. Watches `root` as Monaco redraws.
 * @returns a function that stops watching
 */
export function nameSourceFolds(root: HTMLElement): () => void {
  const name = () => {
    for (const control of root.querySelectorAll<HTMLElement>('.editor.original .diff-hidden-lines a.default-control')) {
      control.setAttribute('aria-hidden', 'true');
      control.tabIndex = -1;
    }
    for (const widget of root.querySelectorAll<HTMLElement>('.editor.modified .diff-hidden-lines')) {
      const control = widget.querySelector<HTMLElement>('a.default-control');
      const count = /(\d+) hidden lines?/.exec(widget.textContent ?? '')?.[1];
      if (!control || !count) continue;
      const label = unfoldLabel(Number(count));
      if (control.getAttribute('aria-label') !== label) control.setAttribute('aria-label', label);
      control.title = label;
      if (control.tabIndex !== 0) control.tabIndex = 0;
      if (!control.dataset.quireKeys) {
        control.dataset.quireKeys = '1';
        control.addEventListener('keydown', (e) => {
          if (e.key !== 'Enter' && e.key !== ' ') return;
          e.preventDefault();
          control.click();
        });
      }
    }
  };
  const observer = new MutationObserver(name);
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  name();
  return () => observer.disconnect();
}
