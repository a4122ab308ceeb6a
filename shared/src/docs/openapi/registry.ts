/**
 * The OpenAPI registry of a docs build: every spec of the repository, and lookup of operations by
 * the reference forms of MINTLIFY-FORMAT.md section 6.
 */
import { normalizeFilePath } from '../files';
import type { BuildWarning, DocsFiles } from '../types';
import { LazySpec } from './lazy-refs';
import { loosePathKey, matchSpecFile, parseOperationRef } from './operation-ref';
import { hasSpecExtension, isRemoteSpec, mightBeSpec, parseSpecText } from './spec-files';
import { HTTP_METHODS, type OpenApiRegistry, type ResolvedOperation, type ResolvedSchema, type SpecObject } from './types';

/** At most this many `$ref` warnings per spec; the rest are summed up in one more. */
const MAX_REF_WARNINGS = 10;

interface LoadedSpec {
  file: string;
  lazy: LazySpec;
  version: ResolvedOperation['specVersion'];
  ops: ResolvedOperation[];
  /** `method path` → operation, exact and loose keys */
  byKey: Map<string, ResolvedOperation>;
  byWebhook: Map<string, ResolvedOperation>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const obj = (v: unknown): SpecObject | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as SpecObject) : undefined;

/** Builds the {@link ResolvedOperation} of one method of a path item. */
function makeOperation(
  file: string,
  version: ResolvedOperation['specVersion'],
  document: SpecObject,
  kind: ResolvedOperation['kind'],
  path: string,
  pathItem: SpecObject,
  method: ResolvedOperation['method'],
  operation: SpecObject,
): ResolvedOperation {
  const meta = obj(obj(operation['x-mint'])?.metadata);
  const operationId = str(operation.operationId);
  const summary = str(operation.summary);
  const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];
  return {
    specFile: file,
    kind,
    method,
    path,
    operation,
    pathItem,
    document,
    specVersion: version,
    operationId,
    summary,
    title: str(meta?.title) ?? summary ?? operationId ?? (kind === 'webhook' ? path : `${method.toUpperCase()} ${path}`),
    description: str(meta?.description) ?? str(operation.description) ?? str(pathItem.description),
    deprecated: operation.deprecated === true || meta?.deprecated === true,
    hidden: operation['x-hidden'] === true || meta?.hidden === true,
    tags,
  };
}

/** Indexes the operations and webhooks of one parsed spec. */
function indexSpec(file: string, lazy: LazySpec, version: ResolvedOperation['specVersion']): LoadedSpec {
  const document = lazy.root();
  const ops: ResolvedOperation[] = [];
  const byKey = new Map<string, ResolvedOperation>();
  const byWebhook = new Map<string, ResolvedOperation>();
  const collect = (section: unknown, kind: ResolvedOperation['kind']) => {
    for (const [path, item] of Object.entries(obj(section) ?? {})) {
      const pathItem = obj(item);
      if (!pathItem) continue;
      for (const method of HTTP_METHODS) {
        const operation = obj(pathItem[method]);
        if (!operation) continue;
        const op = makeOperation(file, version, document, kind, path, pathItem, method, operation);
        if (kind === 'webhook') {
          if (!byWebhook.has(path)) byWebhook.set(path, op);
        } else {
          if (!byKey.has(`${method} ${path}`)) byKey.set(`${method} ${path}`, op);
          const loose = `~${method} ${loosePathKey(path)}`;
          if (!byKey.has(loose)) byKey.set(loose, op);
        }
        if (operation['x-excluded'] !== true) ops.push(op);
      }
    }
  };
  collect(document.paths, 'operation');
  collect(document.webhooks, 'webhook');
  return { file, lazy, version, ops, byKey, byWebhook };
}

/**
 * Loads every OpenAPI spec of a docs repository.
 * - `declared`: spec paths named by the config (`api.openapi`, navigation `openapi`), with or
 *   without a leading `/`; http(s) URLs get a warning 'openapi' ("remote specs are not fetched")
 *   and are skipped; a declared file that is missing or not a spec gets a warning.
 * - every *.json / *.yaml / *.yml file of `files.list()` with a top-level `openapi` or `swagger`
 *   key is loaded too (Mintlify uploads all specs found).
 * - `$ref`s are resolved lazily; external (`other.yaml#/X`, URLs) and dangling internal refs get a
 *   warning each (at most 10 per spec). Never throws.
 */
export function loadOpenApiRegistry(
  files: DocsFiles,
  declared: string[],
): { registry: OpenApiRegistry; warnings: BuildWarning[] } {
  const warnings: BuildWarning[] = [];
  const candidates = new Map<string, boolean>(); // file → declared?
  for (const d of declared) {
    if (isRemoteSpec(d)) {
      warnings.push({ kind: 'openapi', message: `OpenAPI spec ${d}: remote specs are not fetched` });
      continue;
    }
    const file = normalizeFilePath(d.trim());
    if (!file || !files.exists(file)) {
      warnings.push({ kind: 'openapi', message: `OpenAPI spec "${d}" named in the config was not found` });
      continue;
    }
    candidates.set(file, true);
  }
  for (const file of files.list()) if (hasSpecExtension(file) && !candidates.has(file)) candidates.set(file, false);

  const specs = new Map<string, LoadedSpec>();
  for (const [file, isDeclared] of [...candidates].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = files.read(file);
    if (text === undefined) continue;
    if (!isDeclared && !mightBeSpec(file, text)) continue;
    const parsed = parseSpecText(file, text);
    if (!parsed.ok) {
      if (isDeclared || !parsed.message.startsWith('not an OpenAPI')) {
        warnings.push({ file, line: parsed.line, kind: 'openapi', message: `OpenAPI spec ${file}: ${parsed.message}` });
      }
      continue;
    }
    const lazy = new LazySpec(parsed.doc);
    const problems = lazy.scanRefs();
    for (const p of problems.slice(0, MAX_REF_WARNINGS)) {
      warnings.push({
        file,
        kind: 'openapi',
        message:
          p.problem === 'external'
            ? `OpenAPI spec ${file}: external $ref "${p.ref}" is not followed (only refs inside the file are)`
            : `OpenAPI spec ${file}: $ref "${p.ref}" points to nothing in the file`,
      });
    }
    if (problems.length > MAX_REF_WARNINGS) {
      warnings.push({ file, kind: 'openapi', message: `OpenAPI spec ${file}: ${problems.length - MAX_REF_WARNINGS} more $ref problems` });
    }
    specs.set(file, indexSpec(file, lazy, parsed.version));
  }

  const specFiles = [...specs.keys()];
  const findIn = (spec: LoadedSpec, ref: NonNullable<ReturnType<typeof parseOperationRef>>) => {
    if (ref.kind === 'webhook') return spec.byWebhook.get(ref.name);
    return spec.byKey.get(`${ref.method} ${ref.path}`);
  };
  const findLoose = (spec: LoadedSpec, ref: NonNullable<ReturnType<typeof parseOperationRef>>) =>
    ref.kind === 'operation' ? spec.byKey.get(`~${ref.method} ${loosePathKey(ref.path)}`) : undefined;

  const registry: OpenApiRegistry = {
    specFiles,
    resolve(refText, defaultSpec) {
      const ref = parseOperationRef(refText);
      if (!ref) return undefined;
      let order: LoadedSpec[];
      if (ref.spec !== undefined) {
        const f = matchSpecFile(ref.spec, specFiles);
        order = f ? [specs.get(f)!] : [];
      } else {
        const def = defaultSpec !== undefined ? matchSpecFile(defaultSpec, specFiles) : undefined;
        const rest = specFiles.filter((f) => f !== def).map((f) => specs.get(f)!);
        order = def ? [specs.get(def)!, ...rest] : rest;
      }
      for (const s of order) {
        const hit = findIn(s, ref);
        if (hit) return hit;
      }
      for (const s of order) {
        const hit = findLoose(s, ref);
        if (hit) return hit;
      }
      return undefined;
    },
    schema(refText, defaultSpec) {
      const text = refText.trim().replace(/^(["'])(.*)\1$/s, '$2').trim();
      const space = text.search(/\s/);
      const named = space > 0 ? matchSpecFile(text.slice(0, space), specFiles) : undefined;
      const name = named ? text.slice(space).trim() : text;
      const def = defaultSpec !== undefined ? matchSpecFile(defaultSpec, specFiles) : undefined;
      const order = named ? [named] : def ? [def, ...specFiles.filter((f) => f !== def)] : specFiles;
      for (const f of order) {
        const spec = specs.get(f)!;
        const root = spec.lazy.root();
        const holder = obj(spec.version === '2.0' ? root.definitions : obj(root.components)?.schemas);
        const schema = holder && Object.prototype.hasOwnProperty.call(holder, name) ? obj(holder[name]) : undefined;
        if (schema) {
          return {
            specFile: f,
            name,
            schema,
            document: root,
            title: str(schema.title) ?? name,
            description: str(schema.description),
          } satisfies ResolvedSchema;
        }
      }
      return undefined;
    },
    operations(spec) {
      if (spec === undefined) return specFiles.flatMap((f) => specs.get(f)!.ops);
      const f = matchSpecFile(spec, specFiles);
      return f ? [...specs.get(f)!.ops] : [];
    },
  };
  return { registry, warnings };
}
