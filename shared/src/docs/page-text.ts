/**
 * A page's frontmatter `title` read and written in its text, touching no other line (Mintlify page
 * frontmatter, MINTLIFY-FORMAT.md section 4), and the text of a new page.
 */

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;
const TITLE_LINE = /^title:[ \t]*(.*)$/m;

/** A YAML scalar as written after `title:` (plain, 'single' or "double" quoted) read as text. */
function unquote(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.startsWith("'") && v.endsWith("'") && v.length >= 2) return v.slice(1, -1).replace(/''/g, "'");
  return v.replace(/\s+#.*$/, '');
}

/** `text` as a YAML scalar: plain when that reads back the same, else double-quoted (a JSON string is valid YAML). */
export function yamlScalar(text: string): string {
  const plain = /^[^\s'"#&*!|>%@`{}[\],?:-][^#]*$/.test(text) && !/:\s|\s$/.test(text) && !/^(true|false|null|yes|no|on|off|~|[-+]?[\d.]+)$/i.test(text);
  return plain ? text : JSON.stringify(text);
}

/** The frontmatter `title` of a page, or null when it has none. */
export function frontmatterTitle(page: string): string | null {
  const fm = FRONTMATTER.exec(page);
  const line = fm ? TITLE_LINE.exec(fm[1]!) : null;
  return line ? unquote(line[1]!) : null;
}

/** `page` with its frontmatter `title` set to `title` (the line replaced, added, or a frontmatter block added). */
export function withFrontmatterTitle(page: string, title: string): string {
  const line = `title: ${yamlScalar(title)}`;
  const fm = FRONTMATTER.exec(page);
  if (!fm) return `---\n${line}\n---\n\n${page}`;
  const eol = fm[0].includes('\r\n') ? '\r\n' : '\n';
  const body = TITLE_LINE.test(fm[1]!) ? fm[1]!.replace(TITLE_LINE, line) : `${line}${eol}${fm[1]}`;
  return `---${eol}${body}${eol}---${fm[0].endsWith('\n') ? eol : ''}${page.slice(fm[0].length)}`;
}

/**
 * The text of a new page: `template` (a page of the project's templates) with its title set, or a
 * blank page with frontmatter `title` and `description` (Mintlify's two standard fields).
 */
export function newPageText(title: string, description: string, template?: string): string {
  if (template !== undefined) return withFrontmatterTitle(template, title);
  return `---\ntitle: ${yamlScalar(title)}\ndescription: ${yamlScalar(description)}\n---\n\n`;
}
