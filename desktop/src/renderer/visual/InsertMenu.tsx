import { useEffect, useRef, useState } from 'react';
import { MENU_CHOICES, type MenuChoice } from './visual-model';

/**
 * The "Insert block" menu (also opened by "/" in an empty paragraph): a `menu` of `menuitem`s,
 * keyboard first (its last entry, "Image", opens the image file chooser): arrows and Home/End move, Enter or Space chooses, Escape closes and gives the
 * focus back to where it was.
 */
export function InsertMenu({ onChoose, onClose }: { onChoose(choice: MenuChoice): void; onClose(): void }) {
  const [active, setActive] = useState(0);
  const items = useRef<(HTMLLIElement | null)[]>([]);
  useEffect(() => items.current[active]?.focus(), [active]);
  const n = MENU_CHOICES.length;
  return (
    <ul
      className="visual-menu"
      role="menu"
      aria-label="Insert block"
      onKeyDown={(e) => {
        const move: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1 + n, Home: 0, End: n - 1 };
        if (e.key in move) setActive(move[e.key]! % n);
        else if (e.key === 'Enter' || e.key === ' ') onChoose(MENU_CHOICES[active]!);
        else if (e.key === 'Escape' || e.key === 'Tab') onClose();
        else return;
        e.preventDefault();
        e.stopPropagation();
      }}
    >
      {MENU_CHOICES.map((c, i) => (
        <li
          key={c.label}
          ref={(el) => {
            items.current[i] = el;
          }}
          role="menuitem"
          tabIndex={i === active ? 0 : -1}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onChoose(c)}
        >
          {c.label}
        </li>
      ))}
    </ul>
  );
}
