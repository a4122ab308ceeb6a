/**
 * Finding and parsing OpenAPI spec files of a docs repository (MINTLIFY-FORMAT.md section 6:
 * "all specs found in the repo are uploaded even if unreferenced"). JSON, or YAML through the
 * `yaml` package (YAML 1.2 core schema, `<<` merge keys, duplicate keys tolerated, alias count capped).
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';

/** Extensions a spec file may have. */
export const SPEC_EXTENSIONS = ['.json', '.yaml', '.yml'] as const;

/** True when the file name ends in .json, .yaml or .yml (case-insensitive). */
export function hasSpecExtension(filePath: string): boolean {
  const lower = filePath.toLowerCase();
  return SPEC_EXTENSIONS.some((e) => lower.endsWith(e));
}

/** True when `p` is an http(s) URL (remote specs are not fetched). */
export function isRemoteSpec(p: string): boolean {
  return /^https?:\/\//i.test(p.trim());
}

/**
 * Cheap pre-test before parsing an undeclared file: does the text mention a top-level
 * `openapi`/`swagger` key? (Most .json files of a docs repo are package.json, docs.json...)
 */
export function mightBeSpec(filePath: string, text: string): boolean {
  // JSON is YAML too: a .yaml file may hold `{"openapi": ...}`
  if (/"(openapi|swagger)"\s*:/.test(text)) return true;
  return !filePath.toLowerCase().endsWith('.json') && /^["']?(openapi|swagger)["']?\s*:/m.test(text);
}

/** The outcome of {@link parseSpecText}: the document, or an error with its 1-based line when known. */
export type ParsedSpecText =
  | { ok: true; doc: Record<string, unknown>; version: '2.0' | '3.0' | '3.1' }
  | { ok: false; message: string; line?: number };

/**
 * OpenAPI version of a parsed document from its top-level `openapi` (3.0.x, 3.1.x; other 3.x read
 * as 3.1) or `swagger` ('2.0') key; undefined when it has neither.
 */
export function specVersion(doc: unknown): '2.0' | '3.0' | '3.1' | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const d = doc as Record<string, unknown>;
  // the value must be a version: mint.json has a top-level `"openapi": "/openapi.json"` too
  const v = typeof d.openapi === 'string' || typeof d.openapi === 'number' ? String(d.openapi) : '';
  if (/^3\.0(\.|$)/.test(v)) return '3.0';
  if (/^3(\.|$)/.test(v)) return '3.1';
  const sw = typeof d.swagger === 'string' || typeof d.swagger === 'number' ? String(d.swagger) : '';
  if (/^2(\.|$)/.test(sw)) return '2.0';
  return undefined;
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Parses a spec file's text (JSON by `.json` extension, YAML otherwise) and checks it is an
 * OpenAPI/Swagger document. Never throws: errors come back with a message and, when the parser
 * says, a line.
 */
export function parseSpecText(filePath: string, text: string): ParsedSpecText {
  let doc: unknown;
  try {
    if (filePath.toLowerCase().endsWith('.json')) doc = JSON.parse(text);
    else doc = parseYaml(text, { merge: true, uniqueKeys: false, prettyErrors: true });
  } catch (e) {
    if (e instanceof YAMLParseError) {
      return { ok: false, message: `invalid YAML: ${e.message.split('\n')[0]}`, line: e.linePos?.[0]?.line };
    }
    const msg = e instanceof Error ? e.message : String(e);
    const lineCol = /line (\d+)/.exec(msg);
    const pos = /position (\d+)/.exec(msg);
    const line = lineCol ? Number(lineCol[1]) : pos ? lineOfOffset(text, Number(pos[1])) : undefined;
    return { ok: false, message: `invalid JSON: ${msg}`, line };
  }
  const version = specVersion(doc);
  if (!version) {
    return { ok: false, message: 'not an OpenAPI document: no top-level "openapi: 3.x" or "swagger: 2.0" key' };
  }
  return { ok: true, doc: doc as Record<string, unknown>, version };
}
