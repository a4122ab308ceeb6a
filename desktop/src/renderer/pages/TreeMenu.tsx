import { useEffect, useRef } from 'react';

/** One command of a context menu. */
export interface MenuItem {
  label: string;
  run(): void;
}

/**
 * A context menu (WAI-ARIA menu pattern): a `menu` named `label` at (`x`, `y`) with one `menuitem`
 * per item. The first item takes the focus; ArrowUp/ArrowDown/Home/End move it, Enter or a click
 * runs the item, Escape or Tab closes the menu and gives the focus back to `restore`; a click
 * outside closes it.
 */
export function TreeMenu({ label, x, y, items, restore, onClose }: {
  label: string;
  x: number;
  y: number;
  items: MenuItem[];
  restore: HTMLElement | null;
  onClose(): void;
}) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [onClose]);

  const closeBack = () => {
    onClose();
    restore?.focus();
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
    if (e.key === 'ArrowDown') go(at + 1);
    else if (e.key === 'ArrowUp') go(at - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(buttons.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') closeBack();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <ul ref={ref} role="menu" aria-label={label} className="tree-menu" style={{ left: x, top: y }} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <li key={item.label} role="none">
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              onClose();
              item.run();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
