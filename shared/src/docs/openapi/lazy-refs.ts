/**
 * Lazy, cycle-safe `$ref` resolution over a parsed spec (MINTLIFY-FORMAT.md section 6: only
 * internal `$ref`s): internal `$ref`s resolved lazily with cycle protection. Nothing is copied up
 * front: {@link LazySpec.view} wraps a parsed object in a Proxy whose property reads follow `$ref`s
 * (`#/components/schemas/X`, chains of them, with sibling keys such as `description` overriding the
 * target's, as OpenAPI 3.1 allows).
 *
 * Views are cached per target object, so the same component always yields the same view: a reader
 * walking a schema detects a cycle by identity (an ancestor seen again). Never `JSON.stringify` a
 * view of a recursive schema: it would recurse forever, as the plain object would.
 */
import type { SpecObject } from './types';

/** A `$ref` problem found by {@link LazySpec.scanRefs}. */
export interface RefProblem {
  ref: string;
  /** 'external' (another file or a URL: never fetched, decisions.md section 10) or 'unresolved' */
  problem: 'external' | 'unresolved';
}

/** view → component name it was reached through (module-wide: views of every spec) */
const viewNames = new WeakMap<object, string>();

/**
 * The component name a lazy view was reached through (`User` for `#/components/schemas/User`),
 * if any; undefined for inline objects and plain values.
 */
export function refNameOf(view: unknown): string | undefined {
  return typeof view === 'object' && view !== null ? viewNames.get(view) : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Decodes a JSON pointer fragment (`#/components/schemas/A~1B`) into its segments; undefined when not internal. */
export function pointerSegments(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  const body = ref.slice(1);
  if (body === '') return [];
  if (!body.startsWith('/')) return undefined;
  return body
    .slice(1)
    .split('/')
    .map((s) => {
      let d = s;
      try {
        d = decodeURIComponent(s);
      } catch {
        // keep the raw segment: a lone '%' is a legal key
      }
      return d.replace(/~1/g, '/').replace(/~0/g, '~');
    });
}

/** The parsed spec plus the caches of its lazy views. One per spec file. */
export class LazySpec {
  private readonly views = new WeakMap<object, object>();
  private readonly rawOfView = new WeakMap<object, object>();
  private readonly merged = new WeakMap<object, object>();
  private readonly names = new WeakMap<object, string>();

  /** @param raw the parsed JSON or YAML document (a plain object) */
  constructor(readonly raw: Record<string, unknown>) {}

  /** The document as a lazy view. */
  root(): SpecObject {
    return this.view(this.raw) as SpecObject;
  }

  /** Raw value at an internal pointer (`#/components/schemas/User`), or undefined. */
  lookup(ref: string): unknown {
    const segs = pointerSegments(ref);
    if (!segs) return undefined;
    let cur: unknown = this.raw;
    for (const s of segs) {
      if (!isObject(cur) || !Object.prototype.hasOwnProperty.call(cur, s)) return undefined;
      cur = cur[s];
    }
    return cur;
  }

  /**
   * Follows a raw value's `$ref` chain to its target (raw). Sibling keys of a `$ref` object win
   * over the target's (merged copy, cached). External, unresolved and circular chains return the
   * last `$ref` object unchanged, which readers treat as an unknown schema.
   */
  deref(value: unknown): unknown {
    let node = value;
    const seen = new Set<unknown>();
    let siblings: Record<string, unknown> | undefined;
    let name: string | undefined;
    while (isObject(node) && typeof node.$ref === 'string') {
      if (seen.has(node)) return value;
      seen.add(node);
      const target = this.lookup(node.$ref);
      if (target === undefined) return node;
      const extra = Object.keys(node).filter((k) => k !== '$ref');
      if (extra.length > 0 && siblings === undefined) siblings = node;
      name = pointerSegments(node.$ref)?.at(-1);
      node = target;
    }
    if (isObject(node) && name !== undefined && !this.names.has(node)) this.names.set(node, name);
    if (siblings && isObject(node) && !Array.isArray(node)) {
      let m = this.merged.get(siblings);
      if (!m) {
        const own = Object.fromEntries(Object.entries(siblings).filter(([k]) => k !== '$ref'));
        m = { ...node, ...own };
        this.merged.set(siblings, m);
        if (name !== undefined) this.names.set(m, name);
      }
      return m;
    }
    return node;
  }

  /** Wraps an object or array in its (cached) lazy view; other values are returned as they are. */
  view(value: unknown): unknown {
    if (isObject(value) && this.rawOfView.has(value)) return value;
    const target = this.deref(value);
    if (!isObject(target)) return target;
    const cached = this.views.get(target);
    if (cached) {
      if (!viewNames.has(cached) && this.names.has(target)) viewNames.set(cached, this.names.get(target)!);
      return cached;
    }
    const proxy = new Proxy(target, {
      get: (t, key) => {
        const v: unknown = Reflect.get(t, key);
        return typeof key !== 'symbol' && isObject(v) ? this.view(v) : v;
      },
    });
    this.views.set(target, proxy);
    this.rawOfView.set(proxy, target);
    if (this.names.has(target)) viewNames.set(proxy, this.names.get(target)!);
    return proxy;
  }

  /** The plain object behind a view (for identity checks and cheap key tests). */
  rawOf(view: unknown): unknown {
    return isObject(view) ? (this.rawOfView.get(view) ?? view) : view;
  }

  /**
   * Every distinct `$ref` that is external or does not resolve, found by walking the raw document
   * once (YAML aliases may make it a graph: visited objects are skipped).
   */
  scanRefs(): RefProblem[] {
    const out = new Map<string, RefProblem>();
    const visited = new Set<object>();
    const stack: unknown[] = [this.raw];
    while (stack.length > 0) {
      const cur = stack.pop();
      if (!isObject(cur) || visited.has(cur)) continue;
      visited.add(cur);
      const ref = (cur as Record<string, unknown>).$ref;
      if (typeof ref === 'string' && !out.has(ref)) {
        if (!ref.startsWith('#')) out.set(ref, { ref, problem: 'external' });
        else if (this.lookup(ref) === undefined) out.set(ref, { ref, problem: 'unresolved' });
      }
      for (const v of Object.values(cur)) if (isObject(v)) stack.push(v);
    }
    return [...out.values()];
  }
}
