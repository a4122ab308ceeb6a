/**
 * MDX scopes and snippets (MINTLIFY-FORMAT.md section 5). Before conversion, a page's tree is
 * walked once with a scope holding what is statically known:
 * - `import X from '/snippets/x.mdx'` (root-relative or relative, `.mdx`/`.md`, extension optional):
 *   `<X word="..." />` is replaced by the snippet's content, its props filling `{word}` (also inside code
 *   fences) and `{children}`; snippets resolve their own imports; cycles are cut with a warning;
 * - `import { a } from '/snippets/vars.mdx'`: the snippet's `export const a = "..."` literal;
 * - `export const x = "..."` in the file itself: a value for `{x}`;
 * - `<Snippet file="x.mdx" />`: `snippets/x.mdx` or `_snippets/x.mdx`;
 * - `.jsx` snippets, package imports, other exports: a warning, nothing rendered and nothing run.
 * `{expressions}`: comments vanish, static values (see static-eval.ts) become text, anything else is
 * dropped with a warning; `{user.<field>}` becomes a personalisation placeholder (user-references.ts).
 * Capitalised components that are neither known nor defined in the file get an
 * 'unknown-component' warning (once per name and file) and later render only their children.
 * Expansion is bounded per page (limits.ts): snippet nesting depth, characters expanded (each snippet
 * inclusion counts its file's length, each inserted value or prop its size) and characters of static
 * exports; past a cap the page fails with a DocsError naming the file and line where it happened.
 */
import { DocsError, type BuildWarning, type DocsFiles } from '../types';
import { resolveFilePath } from '../files';
import { ExpansionLimitError, formatSize, MAX_PAGE_EXPANSION_CHARS, MAX_PAGE_STATIC_CHARS, MAX_SNIPPET_DEPTH } from '../limits';
import { hoistBlockJsx, isJsxElement, type EsNode, type MdxJsxElement, type UNode } from './mdx-nodes';
import { BUILTIN_USER_FIELDS } from '../../site/personalisation';
import { mentionsUser, userPlaceholder, userReference } from './user-references';
import { evaluate, HtmlValue, NodesValue, programExpression, UNKNOWN, ValueSizes, type StaticValue } from './static-eval';

/** Services and per-page state for resolving one page. */
export interface ResolveContext {
  files: DocsFiles;
  warnings: BuildWarning[];
  /** every snippet path read or looked for (cache key for the builder) */
  dependencies: string[];
  /** parses a snippet file's text into a root (throws DocsError naming the snippet on syntax errors) */
  parse(filePath: string, text: string): UNode;
  /** true for component names the converter renders */
  isKnown(name: string): boolean;
  /**
   * the `user.<field>` names pages may use (site/personalisation.ts `userFieldsOf`); absent: the
   * built-in ones (`name`, `plan`)
   */
  userFields?: ReadonlySet<string>;
}

interface Scope {
  file: string;
  values: Map<string, StaticValue>;
  /** local component name → snippet file path, or null: imported from something that is never rendered */
  snippets: Map<string, string | null>;
  /** names defined by non-static exports (`export const C = () => ...`): children only, no warning */
  defined: Set<string>;
  /** snippet props (filled into code fences) */
  props?: Record<string, StaticValue>;
  /** snippet files being expanded, outermost first (cycle detection) */
  stack: string[];
}

interface State {
  ctx: ResolveContext;
  /** parsed snippet roots by path (undefined: missing) */
  cache: Map<string, UNode | undefined>;
  /** snippet text lengths by path: what one inclusion adds to the page */
  lengths: Map<string, number>;
  unknownSeen: Set<string>;
  sizes: ValueSizes;
  /** characters expanded so far (MAX_PAGE_EXPANSION_CHARS) */
  expanded: number;
  /** characters of static exports evaluated so far (MAX_PAGE_STATIC_CHARS) */
  exported: number;
}

function warn(state: State, file: string, node: UNode | undefined, kind: string, message: string): void {
  const line = node?.position?.start.line;
  state.ctx.warnings.push({ file, ...(line ? { line } : {}), kind, message: `${file}${line ? `:${line}` : ''}: ${message}` });
}

/** 1-based line of an ESTree node (acorn `loc`, file-absolute in MDX), else of the Markdown node. */
function lineOf(node: UNode | undefined, es?: EsNode): number | undefined {
  const loc = es?.loc as { start?: { line?: number } } | undefined;
  return loc?.start?.line ?? node?.position?.start.line;
}

/** Fails the page: `file:line: message` as a DocsError. */
function fail(file: string, line: number | undefined, message: string): never {
  throw new DocsError(`${file}${line ? `:${line}` : ''}: ${message}`, file, line);
}

/** Counts `chars` more expanded characters at `node` of `file`; fails past MAX_PAGE_EXPANSION_CHARS. */
function charge(state: State, file: string, node: UNode | undefined, chars: number): void {
  state.expanded += chars;
  if (state.expanded > MAX_PAGE_EXPANSION_CHARS) {
    fail(file, lineOf(node), `snippet expansion exceeds ${formatSize(MAX_PAGE_EXPANSION_CHARS)} (nested snippets and repeated values multiply); reduce nesting`);
  }
}

/** {@link evaluate} in a scope; a value over MAX_STATIC_VALUE_CHARS fails the page naming `what` (`export "a"`). */
function evaluateAt(state: State, scope: Scope, node: UNode, expr: EsNode | undefined, what: string): StaticValue | typeof UNKNOWN {
  try {
    return evaluate(expr, lookupIn(scope), state.sizes);
  } catch (err) {
    if (err instanceof ExpansionLimitError) fail(scope.file, lineOf(node, expr), `${what} ${err.message}; shorten it`);
    throw err;
  }
}

function short(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

/** Reads a snippet file once per page; records the dependency. */
function loadSnippet(state: State, path: string): UNode | undefined {
  if (state.cache.has(path)) return state.cache.get(path);
  state.ctx.dependencies.push(path);
  const text = state.ctx.files.read(path);
  const root = text === undefined ? undefined : state.ctx.parse(path, text);
  state.cache.set(path, root);
  state.lengths.set(path, text?.length ?? 0);
  return root;
}

/** Resolves an import source to a file path: `{ path }`, or `{ problem }` explaining why not. */
function resolveImport(state: State, fromFile: string, source: string): { path: string } | { problem: string; silent?: boolean } {
  if (!source.startsWith('/') && !source.startsWith('.')) return { problem: `import of package "${source}" is ignored (MDX pages never run code)` };
  const resolved = resolveFilePath(fromFile, source);
  if (resolved === undefined) return { problem: `import "${source}" points outside the docs root` };
  if (/\.(jsx?|tsx?)$/i.test(resolved)) return { problem: `JSX snippet "${source}" is not rendered (MDX pages never run code)` };
  const candidates = /\.mdx?$/i.test(resolved) ? [resolved] : [`${resolved}.mdx`, `${resolved}.md`, resolved];
  for (const c of candidates) {
    if (state.ctx.files.exists(c)) return { path: c };
  }
  state.ctx.dependencies.push(candidates[0]!);
  return { problem: `snippet "${source}" was not found` };
}

function lookupIn(scope: Scope) {
  return (name: string): StaticValue | typeof UNKNOWN => (scope.values.has(name) ? scope.values.get(name) : UNKNOWN);
}

/** Builds a file's scope from its top-level `import`/`export` statements. */
function buildScope(state: State, root: UNode, file: string, props: Record<string, StaticValue> | undefined, stack: string[]): Scope {
  const scope: Scope = { file, values: new Map(), snippets: new Map(), defined: new Set(), props, stack };
  if (props) {
    for (const [k, v] of Object.entries(props)) scope.values.set(k, v);
    scope.values.set('props', props);
  }
  for (const node of root.children ?? []) {
    if (node.type !== 'mdxjsEsm') continue;
    const program = (node.data?.estree ?? null) as EsNode | null;
    for (const stmt of (program?.body as EsNode[] | undefined) ?? []) {
      if (stmt.type === 'ImportDeclaration') readImport(state, scope, node, stmt);
      else if (stmt.type === 'ExportNamedDeclaration') readExport(state, scope, node, stmt);
      else warn(state, file, node, 'expression', `"${short(node.value ?? '')}" is not evaluated (MDX pages never run code)`);
    }
  }
  return scope;
}

function readImport(state: State, scope: Scope, node: UNode, stmt: EsNode): void {
  const source = String((stmt.source as EsNode | undefined)?.value ?? '');
  const specifiers = (stmt.specifiers as EsNode[] | undefined) ?? [];
  const locals = specifiers.map((s) => String((s.local as EsNode).name));
  const target = resolveImport(state, scope.file, source);
  if ('problem' in target) {
    warn(state, scope.file, node, 'snippet', target.problem);
    for (const l of locals) scope.snippets.set(l, null);
    return;
  }
  for (const s of specifiers) {
    const local = String((s.local as EsNode).name);
    if (s.type === 'ImportDefaultSpecifier') scope.snippets.set(local, target.path);
    else if (s.type === 'ImportSpecifier') {
      const imported = (s.imported as EsNode).type === 'Identifier' ? String((s.imported as EsNode).name) : String((s.imported as EsNode).value);
      if (scope.stack.length > MAX_SNIPPET_DEPTH) tooDeep(scope, node);
      const value = snippetExport(state, target.path, imported, scope.stack);
      if (value === UNKNOWN) {
        warn(state, scope.file, node, 'snippet', `"${imported}" is not a constant exported by ${target.path}`);
        scope.snippets.set(local, null);
      } else scope.values.set(local, value);
    } else scope.snippets.set(local, null);
  }
}

function readExport(state: State, scope: Scope, node: UNode, stmt: EsNode): void {
  const decl = stmt.declaration as EsNode | null | undefined;
  if (decl?.type === 'VariableDeclaration') {
    for (const d of (decl.declarations as EsNode[] | undefined) ?? []) {
      const id = d.id as EsNode;
      if (id.type !== 'Identifier') continue;
      const name = String(id.name);
      const value = evaluateAt(state, scope, node, (d.init as EsNode | null) ?? d, `export "${name}"`);
      if (value !== UNKNOWN) {
        state.exported += state.sizes.of(value);
        if (state.exported > MAX_PAGE_STATIC_CHARS) {
          fail(scope.file, lineOf(node, d), `exported values of this page and its snippets exceed ${formatSize(MAX_PAGE_STATIC_CHARS)}; shorten them`);
        }
      }
      if (value === UNKNOWN) {
        scope.defined.add(name);
        warn(state, scope.file, node, 'expression', `export "${name}" is not evaluated (MDX pages never run code)`);
      } else scope.values.set(name, value);
    }
  } else if (decl && (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration')) {
    const name = String((decl.id as EsNode | null)?.name ?? '');
    if (name) scope.defined.add(name);
    warn(state, scope.file, node, 'expression', `export "${name}" is not evaluated (MDX pages never run code)`);
  }
}

/** Fails the page: `scope` would include a snippet more than MAX_SNIPPET_DEPTH levels below the page. */
function tooDeep(scope: Scope, node: UNode): never {
  fail(scope.file, lineOf(node), `snippets nested more than ${MAX_SNIPPET_DEPTH} deep (${scope.stack.slice(0, 3).join(' → ')} → ...); reduce nesting`);
}

/** The static value a snippet exports under `name`, or UNKNOWN (cycles). */
function snippetExport(state: State, path: string, name: string, stack: string[]): StaticValue | typeof UNKNOWN {
  if (stack.includes(path)) return UNKNOWN;
  const root = loadSnippet(state, path);
  if (!root) return UNKNOWN;
  const scope = buildScope(state, root, path, undefined, [...stack, path]);
  return scope.values.has(name) ? scope.values.get(name) : UNKNOWN;
}

/** Reads an element's attributes statically; non-static values are dropped with a warning. */
function readProps(state: State, scope: Scope, node: MdxJsxElement): Record<string, StaticValue> {
  const props: Record<string, StaticValue> = {};
  for (const attr of node.attributes) {
    if (attr.type === 'mdxJsxExpressionAttribute') {
      const v = evaluateAt(state, scope, node, programExpression(attr.data?.estree ?? null), `{${short(attr.value)}}`);
      if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof HtmlValue) && !(v instanceof NodesValue)) Object.assign(props, v);
      else warn(state, scope.file, node, 'expression', `spread attribute {${short(attr.value)}} is not evaluated`);
      continue;
    }
    const value = attr.value;
    if (value === null || value === undefined) props[attr.name] = true;
    else if (typeof value === 'string') props[attr.name] = value;
    else {
      const v = evaluateAt(state, scope, node, programExpression(value.data?.estree ?? null), `${attr.name}={${short(value.value)}}`);
      if (v === UNKNOWN) warn(state, scope.file, node, 'expression', `${attr.name}={${short(value.value)}} is not evaluated (MDX pages never run code)`);
      else props[attr.name] = v;
    }
  }
  charge(state, scope.file, node, state.sizes.of(props));
  return props;
}

/** Inline contexts take a lone paragraph's children instead of the paragraph. */
function fit(nodes: UNode[], inline: boolean): UNode[] {
  if (inline && nodes.length === 1 && nodes[0]!.type === 'paragraph') return nodes[0]!.children ?? [];
  return nodes;
}

/** Replaces `{prop}` in code by string/number props, counting what each replacement adds. */
function fillCode(state: State, scope: Scope, node: UNode, code: string, props: Record<string, StaticValue>): string {
  return code.replace(/\{\s*([A-Za-z_$][\w$]*)\s*\}/g, (m, name: string) => {
    const v = Object.hasOwn(props, name) ? props[name] : undefined;
    if (typeof v !== 'string' && typeof v !== 'number') return m;
    const text = String(v);
    charge(state, scope.file, node, text.length);
    return text;
  });
}

function expandSnippet(state: State, scope: Scope, node: MdxJsxElement, path: string, props: Record<string, StaticValue>): UNode[] {
  if (scope.stack.includes(path)) {
    warn(state, scope.file, node, 'snippet', `snippet ${path} includes itself; the inner copy is left out`);
    return [];
  }
  if (scope.stack.length > MAX_SNIPPET_DEPTH) tooDeep(scope, node);
  const root = loadSnippet(state, path);
  if (!root) {
    warn(state, scope.file, node, 'snippet', `snippet ${path} was not found`);
    return [];
  }
  charge(state, scope.file, node, state.lengths.get(path) ?? 0);
  const copy = structuredClone(root);
  const inner = buildScope(state, copy, path, props, [...scope.stack, path]);
  return fit(walk(state, inner, copy.children ?? [], false), node.type === 'mdxJsxTextElement');
}

/** `<Snippet file="x.mdx" />`: `snippets/x.mdx`, else `_snippets/x.mdx` (also with the extension added). */
function snippetFile(state: State, file: string): string | undefined {
  const clean = file.replace(/^\/+/, '');
  const names = /\.mdx?$/i.test(clean) ? [clean] : [`${clean}.mdx`, `${clean}.md`];
  const candidates = names.flatMap((n) => (n.startsWith('snippets/') || n.startsWith('_snippets/') ? [n] : [`snippets/${n}`, `_snippets/${n}`]));
  for (const c of candidates) if (state.ctx.files.exists(c)) return c;
  state.ctx.dependencies.push(...candidates);
  return undefined;
}

/** `out.push(...items)` without passing every item as an argument (a long list would overflow the stack). */
function append(out: UNode[], items: readonly UNode[]): void {
  for (const n of items) out.push(n);
}

function walk(state: State, scope: Scope, nodes: UNode[], inline: boolean): UNode[] {
  const out: UNode[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'mdxjsEsm':
        break;
      case 'mdxFlowExpression':
      case 'mdxTextExpression': {
        const expr = programExpression((node.data?.estree ?? null) as EsNode | null);
        if (!expr) break;
        if (!scope.values.has('user') && mentionsUser(expr)) {
          const personal = userNode(state, scope, node, expr);
          if (personal) out.push(personal);
          break;
        }
        const v = evaluateAt(state, scope, node, expr, `{${short(node.value ?? '')}}`);
        if (v !== UNKNOWN) charge(state, scope.file, node, state.sizes.of(v));
        if (typeof v === 'string' || typeof v === 'number') out.push({ type: 'text', value: String(v) });
        else if (v instanceof HtmlValue) out.push({ type: 'html', value: v.html });
        else if (v instanceof NodesValue) append(out, fit(v.nodes, node.type === 'mdxTextExpression'));
        else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out.push({ type: 'text', value: v.join('') });
        else if (v === UNKNOWN) warn(state, scope.file, node, 'expression', `{${short(node.value ?? '')}} is not evaluated (MDX pages never run code)`);
        break;
      }
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        if (!isJsxElement(node)) break;
        const el = node;
        const isInline = el.type === 'mdxJsxTextElement';
        if (el.name === null) {
          append(out, walk(state, scope, el.children, isInline));
          break;
        }
        const props = readProps(state, scope, el);
        if (scope.snippets.has(el.name)) {
          const path = scope.snippets.get(el.name);
          if (path) {
            props.children = new NodesValue(walk(state, scope, el.children, isInline));
            append(out, expandSnippet(state, scope, el, path, props));
          }
          break;
        }
        if (el.name === 'Snippet') {
          const file = typeof props.file === 'string' ? props.file : '';
          const path = file ? snippetFile(state, file) : undefined;
          if (path) append(out, expandSnippet(state, scope, el, path, props));
          else warn(state, scope.file, el, 'snippet', `snippet "${file}" was not found in snippets/ or _snippets/`);
          break;
        }
        el.data = { ...el.data, quireProps: props };
        if (/^[A-Z]/.test(el.name) && !state.ctx.isKnown(el.name)) {
          el.data.quireUnknown = true;
          const key = `${scope.file}\0${el.name}`;
          if (!scope.defined.has(el.name) && !state.unknownSeen.has(key)) {
            state.unknownSeen.add(key);
            warn(state, scope.file, el, 'unknown-component', `unknown component <${el.name}>: its content is shown without it`);
          }
        }
        el.children = walk(state, scope, el.children, isInline);
        out.push(el);
        break;
      }
      case 'code':
        if (scope.props && typeof node.value === 'string') node.value = fillCode(state, scope, node, node.value, scope.props);
        out.push(node);
        break;
      case 'paragraph': {
        const hoisted = hoistBlockJsx(node);
        if (hoisted) {
          append(out, walk(state, scope, hoisted, false));
          break;
        }
        node.children = walk(state, scope, node.children ?? [], true);
        out.push(node);
        break;
      }
      default:
        if (node.children) node.children = walk(state, scope, node.children, inline || node.type === 'heading');
        out.push(node);
    }
  }
  return out;
}

const BUILTIN_FIELDS: ReadonlySet<string> = new Set(BUILTIN_USER_FIELDS);

/**
 * The node of a `{user...}` expression (user-references.ts): the placeholder of an allowlisted
 * field; else a warning and the fallback text (none without one). Nothing is evaluated.
 */
function userNode(state: State, scope: Scope, node: UNode, expr: EsNode): UNode | undefined {
  const ref = userReference(expr);
  const allowed = state.ctx.userFields ?? BUILTIN_FIELDS;
  if (ref && allowed.has(ref.field)) return { type: 'html', value: userPlaceholder(ref) };
  const why = ref
    ? `user.${ref.field} is not a declared field (${[...allowed].join(', ')}; declare more in docs.json personalization.fields)`
    : 'only user.<field>, optionally with ?? "fallback", is personalised';
  warn(state, scope.file, node, 'personalization', `{${short(node.value ?? '')}}: ${why}`);
  return ref?.fallback ? { type: 'text', value: ref.fallback } : undefined;
}

/**
 * Resolves a page's tree in place (see the module doc): after this, the tree holds no ESM nodes and no
 * expressions, snippets are inlined, and every remaining JSX element carries `data.quireProps`.
 * @throws DocsError from `ctx.parse` when a snippet cannot be parsed; DocsError naming the file and line
 *   when the page exceeds a cap of limits.ts (snippet depth, expanded characters, static values)
 */
export function resolvePage(root: UNode, filePath: string, ctx: ResolveContext): void {
  const state: State = { ctx, cache: new Map(), lengths: new Map(), unknownSeen: new Set(), sizes: new ValueSizes(), expanded: 0, exported: 0 };
  const scope = buildScope(state, root, filePath, undefined, [filePath]);
  root.children = walk(state, scope, root.children ?? [], false);
}
