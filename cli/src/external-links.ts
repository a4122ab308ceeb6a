/**
 * The external link check of `check --external`: a bounded, polite fetcher. At most `concurrency`
 * requests at once (default 4), one request per URL, requests to one host at least `hostDelayMs`
 * apart (default 500 ms), each bounded by `timeoutMs` (default 10 s). HEAD first; GET when the server
 * refuses HEAD (405, 501, 403, 400). 404 and 410 and hosts that do not resolve are `broken-external-link`
 * (errors); timeouts, 429 and other failures are `external-link-unreachable` (warnings: it may work later).
 */
import { lineOf } from '@quire/shared/docs/link-check';
import type { BuildWarning } from '@quire/shared/docs/types';

/** Settings of the fetcher. */
export interface ExternalCheckOptions {
  concurrency?: number;
  timeoutMs?: number;
  hostDelayMs?: number;
  /** the fetch to use (tests) */
  fetch?: typeof fetch;
}

/** Where an external link is written: file (docs-root relative) and 1-based line. */
export interface LinkPlace {
  file: string;
  line?: number;
}

/** The `http:`/`https:` links of rendered pages (`href` of their HTML), each with the places it is written. */
export function externalLinksOf(pages: ReadonlyArray<{ file: string; html: string; source?: string }>): Map<string, LinkPlace[]> {
  const links = new Map<string, LinkPlace[]>();
  for (const p of pages) {
    for (const m of p.html.matchAll(/\shref="(https?:\/\/[^"]+)"/gi)) {
      const url = m[1]!.replace(/&amp;/g, '&');
      const places = links.get(url) ?? [];
      if (!places.some((x) => x.file === p.file)) places.push({ file: p.file, ...(p.source ? lineOf(p.source, url) : {}) });
      links.set(url, places);
    }
  }
  return links;
}

const RETRY_WITH_GET = new Set([400, 403, 405, 501]);

/** Checks each URL once; one warning per place a failing URL is written. */
export async function checkExternalLinks(links: ReadonlyMap<string, readonly LinkPlace[]>, options: ExternalCheckOptions = {}): Promise<BuildWarning[]> {
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const hostDelayMs = options.hostDelayMs ?? 500;
  const doFetch = options.fetch ?? fetch;
  const lastStart = new Map<string, number>();
  /**
   * Waits for the host's turn: a request to a host starts at least `hostDelayMs` after the previous
   * one did (checked and marked with no await in between, so two workers never share a turn).
   */
  const politely = async (host: string) => {
    for (;;) {
      const wait = (lastStart.get(host) ?? -Infinity) + hostDelayMs - performance.now();
      if (wait <= 0) return void lastStart.set(host, performance.now());
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
  };
  const request = async (url: string, method: 'HEAD' | 'GET') => {
    const host = new URL(url).host;
    await politely(host);
    const res = await doFetch(url, { method, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs), headers: { 'user-agent': 'quire-docs link check' } });
    await res.body?.cancel().catch(() => undefined);
    return res.status;
  };
  const verdict = async (url: string): Promise<{ kind: string; reason: string } | undefined> => {
    try {
      let status = await request(url, 'HEAD');
      if (RETRY_WITH_GET.has(status)) status = await request(url, 'GET');
      if (status < 400) return undefined;
      return { kind: status === 404 || status === 410 ? 'broken-external-link' : 'external-link-unreachable', reason: `HTTP ${status}` };
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string }; message?: string };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') return { kind: 'external-link-unreachable', reason: `no answer within ${timeoutMs} ms` };
      if (e.cause?.code === 'ENOTFOUND') return { kind: 'broken-external-link', reason: 'the host does not resolve' };
      return { kind: 'external-link-unreachable', reason: e.cause?.code ?? e.message ?? 'failed' };
    }
  };
  const urls = [...links.keys()];
  const warnings: BuildWarning[] = [];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++]!;
      const v = await verdict(url);
      if (!v) continue;
      for (const place of links.get(url)!) warnings.push({ file: place.file, ...(place.line ? { line: place.line } : {}), kind: v.kind, message: `${url} (${v.reason})` });
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, urls.length) }, worker));
  return warnings;
}
