/**
 * The visual mode's "Link URL" check (inline-format.ts `linkUrlProblem`, the site's `safeHref` rule, decisions.md
 * section 10): URLs are accepted as typed, relative paths included; empty URLs and script schemes are refused.
 */
import { describe, expect, it } from 'vitest';
import { linkUrlProblem } from '../src/renderer/visual/inline-format';

describe('linkUrlProblem', () => {
  it('accepts relative paths, fragments and http, https and mailto URLs', () => {
    for (const url of ['/quickstart', 'guides/start', '../up', '#install', '?q=1', 'https://example.com/a?b#c', 'http://x.dev', 'mailto:me@example.com']) {
      expect(linkUrlProblem(url), url).toBeNull();
    }
  });

  it('refuses an empty URL', () => {
    expect(linkUrlProblem('   ')).toMatch(/Enter the URL/);
  });

  it('refuses javascript:, data: and vbscript: URLs, in any case and with control characters', () => {
    for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', 'vbscript:x', '//evil.example']) {
      expect(linkUrlProblem(url), url).toMatch(/cannot be a link/);
    }
  });
});
