import type { Redirect } from '../types';

/** Where a matched redirect sends the visitor. */
export interface RedirectTarget {
  /** destination with parameters and wildcards substituted; anchors (`#x`) kept */
  location: string;
  /** 308 when `permanent` (the default), 307 otherwise */
  status: 307 | 308;
}

interface Compiled {
  regex: RegExp;
  /** capture group order: `name` for `:name`/`:name*`, `*` for a prefix wildcard */
  captures: string[];
}

const compiledCache = new WeakMap<Redirect, Compiled>();

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Turns a redirect source into a regular expression (MINTLIFY-FORMAT.md section 7). */
function compile(source: string): Compiled {
  const captures: string[] = [];
  let body = '';
  for (const seg of source.split('/').filter((s) => s !== '')) {
    const rest = /^:([A-Za-z0-9_]+)\*$/.exec(seg);
    const param = /^:([A-Za-z0-9_]+)$/.exec(seg);
    if (rest) {
      captures.push(rest[1]!);
      body += '(?:/(.*))?';
    } else if (param) {
      captures.push(param[1]!);
      body += '/([^/]+)';
    } else if (seg.includes('*')) {
      body += '/' + seg.split('*').map(escapeRegex).join('(.*)');
      for (let i = 1; i < seg.split('*').length; i++) captures.push('*');
    } else body += '/' + escapeRegex(seg);
  }
  return { regex: new RegExp(`^${body}/?$`), captures };
}

function compiled(r: Redirect): Compiled {
  let c = compiledCache.get(r);
  if (!c) {
    c = compile(r.source);
    compiledCache.set(r, c);
  }
  return c;
}

/** Puts captured values into a destination: `:name*`, `:name`, then each `*` in order. */
function substitute(destination: string, c: Compiled, values: (string | undefined)[]): string {
  const named = new Map<string, string>();
  const stars: string[] = [];
  c.captures.forEach((name, i) => {
    if (name === '*') stars.push(values[i] ?? '');
    else named.set(name, values[i] ?? '');
  });
  let out = destination;
  // longest names first so that `:slug` does not eat the start of `:slugs`
  for (const name of [...named.keys()].sort((a, b) => b.length - a.length)) {
    const v = named.get(name)!;
    out = out.replace(new RegExp(`/:${name}\\*`, 'g'), v ? `/${v}` : '');
    out = out.replace(new RegExp(`:${name}\\*?(?![A-Za-z0-9_])`, 'g'), v);
  }
  if (stars.length) {
    let i = 0;
    out = out.replace(/\*/g, () => stars[i++] ?? '');
  }
  return out === '' ? '/' : out;
}

/**
 * The first redirect (in config order) whose source matches `path`, or undefined.
 * Sources are exact paths (`/old`), `:param` segments (`/blog/:id`), a trailing `:slug*` that
 * matches the rest of the path, even nothing (`/beta/:slug*` → `/v2/:slug*`), or `*` inside a
 * segment (`/old/article-*` → `/new/article-*`). A trailing slash on `path` is ignored, and so are
 * its query string and fragment. Matching is case-sensitive.
 * @param path URL path of the request, e.g. `/beta/guides/setup`
 */
export function matchRedirect(redirects: Redirect[], path: string): RedirectTarget | undefined {
  let p = path.replace(/[?#].*$/, '');
  if (!p.startsWith('/')) p = `/${p}`;
  for (const r of redirects) {
    const c = compiled(r);
    const m = c.regex.exec(p);
    if (m) return { location: substitute(r.destination, c, m.slice(1)), status: r.permanent === false ? 307 : 308 };
  }
  return undefined;
}
