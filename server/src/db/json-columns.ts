/**
 * JSON-valued TEXT columns (prisma/schema.prisma: SQLite has no JSON type, so lists are stored as
 * JSON strings and parsed in services).
 */

/**
 * The strings of a stored JSON `string[]` column; non-string items are left out.
 * @returns null when the text is not JSON or not an array (a column written by something else).
 */
export function parseStringList(json: string): string[] | null {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
  } catch {
    return null;
  }
}
