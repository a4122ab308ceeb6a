/**
 * Small sRGB helpers for the per-site theme: mixing a config color toward white/black and picking
 * a readable text color for a filled surface (WCAG relative luminance). Hex colors only; callers
 * fall back to CSS color-mix() for other notations.
 */

type Rgb = [number, number, number];

/** Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (alpha ignored); undefined otherwise. */
export function parseHex(value: string): Rgb | undefined {
  const m = /^#([0-9a-f]{3,8})$/i.exec(value.trim());
  if (!m) return undefined;
  let h = m[1]!;
  if (h.length === 3 || h.length === 4) h = [...h.slice(0, 3)].map((c) => c + c).join('');
  else if (h.length === 8) h = h.slice(0, 6);
  else if (h.length !== 6) return undefined;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** `weight` (0..1) of `a` mixed with `b`, as `#rrggbb`. */
export function mixHex(a: Rgb, b: Rgb, weight: number): string {
  return toHex([0, 1, 2].map((i) => a[i]! * weight + b[i]! * (1 - weight)) as Rgb);
}

/** WCAG relative luminance (0 = black, 1 = white). */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Near-black or white, whichever contrasts more with a surface of color `rgb`. */
export function readableOn(rgb: Rgb): string {
  const l = luminance(rgb);
  const dark = 0.0056; // luminance of #0b0e12
  return (l + 0.05) / (dark + 0.05) >= 1.05 / (l + 0.05) ? '#0b0e12' : '#ffffff';
}
