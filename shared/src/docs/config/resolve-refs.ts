import { resolveFilePath } from '../files';
import { formatSize, MAX_CONFIG_RESOLVED_CHARS, MAX_REF_DEPTH, MAX_REF_EXPANSIONS } from '../limits';
import { DocsError, type BuildWarning, type DocsFiles } from '../types';
import { formatJsonPath, isJsonObject, type JsonPath } from './json-path';
import { parseJsonFile } from './read-json';

/** Where an object or array of the resolved config was written: its file and its JSON path there. */
export interface JsonOrigin {
  file: string;
  path: JsonPath;
}

/** A config file with every `$ref` replaced by the JSON it names. */
export interface ResolvedJson {
  value: unknown;
  /** `$ref`s refused (outside the docs root, URLs) or whose sibling keys were dropped */
  warnings: BuildWarning[];
  /** origin of every object and array of `value`, so errors can name the file a value came from */
  origins: WeakMap<object, JsonOrigin>;
  /** every file read, the config first: part of the build's cache key */
  files: string[];
  /** the text of every file read, to point errors at a line */
  texts: Map<string, string>;
}

/**
 * Reads a JSON config file and resolves `$ref` anywhere in it (MINTLIFY-FORMAT.md section 2):
 * `{"$ref": "./file.json"}` is replaced by that file's JSON; when the target is an object the
 * sibling keys override its keys, when it is anything else the siblings are dropped (with a
 * warning). Paths are relative to the referring file (`/x.json` is from the docs root); nested
 * refs resolve relative to their own file. A `$ref` leaving the docs root, or naming a URL, is
 * refused with a `config` warning and ignored (decisions.md section 10); `#` fragments are not supported.
 * Expansion is bounded (limits.ts, decisions.md section 10): at most MAX_REF_EXPANSIONS `$ref`s, chains
 * of at most MAX_REF_DEPTH files, and MAX_CONFIG_RESOLVED_CHARS of resolved JSON, counted while copying.
 * @throws DocsError when a file is missing or not valid JSON, a `$ref` is not a string, refs form a
 *   cycle, or a limit above is passed (naming the file being copied and how it was reached)
 */
export function loadJsonWithRefs(files: DocsFiles, file: string): ResolvedJson {
  const warnings: BuildWarning[] = [];
  const origins = new WeakMap<object, JsonOrigin>();
  const texts = new Map<string, string>();
  const parsed = new Map<string, unknown>();
  let expansions = 0;
  /** characters of resolved JSON so far: each value's own characters plus 1 (MAX_CONFIG_RESOLVED_CHARS) */
  let resolvedChars = 0;
  const count = (chars: number, inFile: string, chain: string[]) => {
    resolvedChars += chars + 1;
    if (resolvedChars > MAX_CONFIG_RESOLVED_CHARS) {
      throw new DocsError(
        `${inFile}: the config exceeds ${formatSize(MAX_CONFIG_RESOLVED_CHARS)} once $refs are resolved ` +
          `(reached through ${chain.join(' → ')}; a file referenced several times is copied each time); reference it fewer times`,
        inFile,
      );
    }
  };

  const readParsed = (target: string): unknown => {
    if (!parsed.has(target)) {
      const text = files.read(target);
      if (text === undefined) return undefined;
      texts.set(target, text);
      parsed.set(target, parseJsonFile(text, target));
    }
    return parsed.get(target);
  };

  const resolve = (value: unknown, inFile: string, path: JsonPath, chain: string[]): unknown => {
    count(typeof value === 'string' ? value.length : typeof value === 'object' && value !== null ? 0 : String(value).length, inFile, chain);
    if (Array.isArray(value)) {
      const out = value.map((v, i) => resolve(v, inFile, [...path, i], chain));
      origins.set(out, { file: inFile, path });
      return out;
    }
    if (!isJsonObject(value)) return value;
    const { $ref: ref, ...siblings } = value;
    const resolvedSiblings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(siblings)) {
      count(k.length, inFile, chain);
      resolvedSiblings[k] = resolve(v, inFile, [...path, k], chain);
    }
    origins.set(resolvedSiblings, { file: inFile, path });
    if (!('$ref' in value)) return resolvedSiblings;

    const field = formatJsonPath([...path, '$ref']);
    if (typeof ref !== 'string') {
      throw new DocsError(`${inFile}: ${field} must be a path to a JSON file, got ${typeof ref}`, inFile, undefined, undefined, field);
    }
    const refuse = (why: string) => {
      warnings.push({ file: inFile, kind: 'config', message: `${inFile}: ${field} "${ref}" ${why}; ignored.` });
      return resolvedSiblings;
    };
    if (/^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith('//')) return refuse('is a URL; a build reads only files of its checkout');
    if (ref.includes('#')) return refuse('uses a JSON pointer fragment, which is not supported');
    const target = resolveFilePath(inFile, ref);
    if (target === undefined || target === '') return refuse('points outside the docs root');
    if (chain.includes(target)) {
      throw new DocsError(
        `${inFile}: ${field} "${ref}" makes a cycle: ${[...chain, target].join(' → ')}`,
        inFile, undefined, undefined, field,
      );
    }
    if (chain.length > MAX_REF_DEPTH) {
      throw new DocsError(
        `${inFile}: ${field}: the $ref chain is deeper than ${MAX_REF_DEPTH} files (${chain.slice(0, 3).join(' → ')} → ...); include files less deeply`,
        inFile, undefined, undefined, field,
      );
    }
    if (++expansions > MAX_REF_EXPANSIONS) {
      throw new DocsError(`${inFile}: ${field}: more than ${MAX_REF_EXPANSIONS} $ref expansions`, inFile, undefined, undefined, field);
    }
    const raw = readParsed(target);
    if (raw === undefined) {
      throw new DocsError(`${inFile}: ${field} names "${ref}", but ${target} does not exist`, inFile, undefined, undefined, field);
    }
    const included = resolve(raw, target, [], [...chain, target]);
    if (isJsonObject(included)) {
      const merged = { ...included, ...resolvedSiblings };
      origins.set(merged, origins.get(included)!);
      return merged;
    }
    if (Object.keys(siblings).length) {
      warnings.push({
        file: inFile,
        kind: 'config',
        message: `${inFile}: ${formatJsonPath(path)}: keys beside "$ref" are ignored because ${target} holds ${Array.isArray(included) ? 'an array' : 'a single value'}.`,
      });
    }
    return included;
  };

  const root = readParsed(file);
  if (root === undefined) throw new DocsError(`${file}: file not found`, file);
  const value = resolve(root, file, [], [file]);
  return { value, warnings, origins, files: [...texts.keys()], texts };
}
