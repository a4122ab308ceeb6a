/**
 * Display math written as `$$ ... $$` (rendered with KaTeX, math.ts). Both engines turn such blocks into
 * fenced ```math blocks before parsing,
 * keeping every line where it was so that parse errors still point at the right line. Inside `$$` blocks
 * MDX would otherwise read `{...}` as JavaScript expressions.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Rewrites `$$` display-math blocks outside code fences into ```math fences, line for line.
 * A one-line `$$x$$` becomes a three-line fence only when it stands alone on its line (the extra lines are
 * taken from nothing, so later line numbers shift by two for each such line; rare in practice).
 */
export function fenceDisplayMath(body: string): string {
  if (!body.includes('$$')) return body;
  const lines = body.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let inMath = false;
  for (const line of lines) {
    if (inMath) {
      if (/^\s*\$\$\s*$/.test(line)) {
        out.push('```');
        inMath = false;
      } else if (/\$\$\s*$/.test(line)) {
        out.push(line.replace(/\$\$\s*$/, ''), '```');
        inMath = false;
      } else out.push(line);
      continue;
    }
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      out.push(line);
      continue;
    }
    if (f) {
      fence = f[1];
      out.push(line);
      continue;
    }
    const single = /^\s*\$\$(.+)\$\$\s*$/.exec(line);
    if (single) {
      out.push('```math', single[1]!.trim(), '```');
      continue;
    }
    const open = /^\s*\$\$(.*)$/.exec(line);
    if (open) {
      out.push('```math');
      if (open[1]!.trim()) out.push(open[1]!);
      inMath = true;
      continue;
    }
    out.push(line);
  }
  if (inMath) out.push('```');
  return out.join('\n');
}
