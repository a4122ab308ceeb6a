/** A JSON path as a list of keys and array indexes, outermost first. */
export type JsonPath = readonly (string | number)[];

/**
 * A JSON path written the way people read it: `navigation.tabs[1].groups`; keys that are not
 * identifiers are quoted (`variables["my-key"]`). The empty path is written as `(root)`.
 */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out || '(root)';
}

/** How a JSON value reads in an error message: `a string`, `an array`, `nothing`... */
export function describeJsonType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** The value itself for an error message, shortened: `"red"`, `42`; falls back to {@link describeJsonType}. */
export function describeJsonValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeJsonType(value);
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at `path` inside `root`, or undefined when the path does not exist. */
export function valueAt(root: unknown, path: JsonPath): unknown {
  let node = root;
  for (const seg of path) {
    if (Array.isArray(node) && typeof seg === 'number') node = node[seg];
    else if (isJsonObject(node) && typeof seg === 'string') node = node[seg];
    else return undefined;
  }
  return node;
}
