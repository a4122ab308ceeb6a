import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { COMMANDS, handleShortcut, shortcutLabel } from '../editor/commands';
import { useApp } from '../store/app-store';
import { useUi } from '../store/ui-slice';

/** One row of the palette: a command, or a page to open. */
interface Item {
  key: string;
  label: string;
  hint: string;
  disabled: string | null;
  run(): void;
}

/** True when every word of `query` is in `text` (case-insensitive). */
function matchesQuery(text: string, query: string): boolean {
  const t = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => t.includes(w));
}

/**
 * The command palette (desktop-look.md "Keyboard first"): Ctrl/Cmd+Shift+P lists every command with
 * its shortcut (and the pages, "Open page: <title>"), Ctrl/Cmd+P only the pages by title. A modal
 * dialog named "Command palette" with a combobox and a listbox of options; arrows move, Enter runs,
 * Escape closes and gives the focus back. Also installs the app's keyboard shortcuts (commands.ts).
 */
export function CommandPalette() {
  const mode = useUi((s) => s.palette);
  const openPalette = useUi((s) => s.openPalette);
  const pages = useUi((s) => s.pages);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const restore = useRef<HTMLElement | null>(null);
  const listId = useId();

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => void handleShortcut(e);
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  useEffect(() => {
    if (!mode) return;
    restore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setQuery('');
    setActive(0);
    requestAnimationFrame(() => input.current?.focus());
  }, [mode]);

  const close = () => {
    openPalette(null);
    const back = restore.current;
    restore.current = null;
    requestAnimationFrame(() => back?.focus());
  };

  const items = useMemo((): Item[] => {
    const pageItems: Item[] = pages.map((p) => ({
      key: `page:${p.path}`,
      label: mode === 'pages' ? p.title : `Open page: ${p.title}`,
      hint: p.path,
      disabled: null,
      run: () => useApp.getState().openFile(p.path),
    }));
    if (mode === 'pages') return pageItems.filter((i) => matchesQuery(`${i.label} ${i.hint}`, query));
    const commandItems: Item[] = COMMANDS.filter((c) => c.id !== 'palette').map((c) => ({
      key: c.id,
      label: c.title,
      hint: c.shortcut ? shortcutLabel(c.shortcut) : '',
      disabled: c.disabledReason(),
      run: () => void c.run(),
    }));
    return [...commandItems, ...(query ? pageItems : [])].filter((i) => matchesQuery(i.label, query));
  }, [mode, pages, query]);

  if (!mode) return null;
  const current = items[Math.min(active, items.length - 1)];

  const runItem = (item: Item | undefined) => {
    if (!item || item.disabled) return;
    // the palette closes first, so a command that opens it again (Go to page) is not undone
    openPalette(null);
    const back = restore.current;
    restore.current = null;
    item.run();
    if (item.key.startsWith('page:')) return;
    if (useUi.getState().palette === null) requestAnimationFrame(() => back?.focus());
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, Math.max(items.length - 1, 0)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      runItem(current);
    }
  };

  const optionId = (i: number) => `${listId}-opt-${i}`;
  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div role="dialog" aria-modal="true" aria-label="Command palette" className="palette" onKeyDown={onKeyDown}>
        <input
          ref={input}
          role="combobox"
          aria-label={mode === 'pages' ? 'Go to page' : 'Command'}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(items.indexOf(current)) : undefined}
          placeholder={mode === 'pages' ? 'Page title' : 'Type a command'}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        <ul id={listId} role="listbox" aria-label={mode === 'pages' ? 'Pages' : 'Commands'}>
          {items.length === 0 && (
            <li role="presentation" className="hint">
              No match.
            </li>
          )}
          {items.map((item, i) => (
            <li
              key={item.key}
              id={optionId(i)}
              role="option"
              aria-selected={item === current}
              aria-disabled={item.disabled ? true : undefined}
              title={item.disabled ?? undefined}
              onMouseEnter={() => setActive(i)}
              onClick={() => runItem(item)}
            >
              <span>{item.label}</span>
              {item.hint && (mode === 'pages' || item.key.startsWith('page:') ? <span className="hint">{item.hint}</span> : <kbd>{item.hint}</kbd>)}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
