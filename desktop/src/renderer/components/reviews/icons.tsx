/**
 * Small line icons drawn inline (no icon font, no emoji font needed: Linux machines often lack one).
 * Decorative: `aria-hidden`; the control or text beside them carries the name.
 */
const PATHS = {
  pages: 'M6 2h8l4 4v16H6zM14 2v4h4M9 11h6M9 15h6M9 19h4',
  reviews: 'M4 5h16v11H9l-5 4z',
  problems: 'M12 3l10 18H2zM12 10v5M12 18v.5',
  builds: 'M5 3l14 9-14 9z',
  clock: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18M12 7v5l3 3',
  comment: 'M4 5h16v11H9l-5 4z',
  changes: 'M6 3v12M6 15a3 3 0 1 0 0 6a3 3 0 1 0 0-6M18 3a3 3 0 1 0 0 6a3 3 0 1 0 0-6M18 9c0 6-12 4-12 6',
  search: 'M10 3a7 7 0 1 0 0 14a7 7 0 1 0 0-14M15 15l6 6',
} as const;

/** The name of an icon of {@link Icon}. */
export type IconName = keyof typeof PATHS;

/** One icon, `size` px square, in the current text color. */
export function Icon({ name, size = 14 }: { name: IconName; size?: number }) {
  return (
    <svg aria-hidden="true" focusable="false" width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className="icon">
      <path d={PATHS[name]} />
    </svg>
  );
}
