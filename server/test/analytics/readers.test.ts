/**
 * Who a reader is (analytics/readers.ts): known AI agents and crawlers by user agent, agent files
 * (`.md`, `llms.txt`, `llms-full.txt`) and MCP calls as agents, everyone else a person.
 */
import { describe, expect, it } from 'vitest';
import { classifyReader, servedKindOf, type ServedKind } from '../../src/analytics/readers';

describe('classifyReader', () => {
  it.each<[string | undefined, ServedKind, string, string]>([
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'page', 'agent', 'GPTBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'page', 'agent', 'ChatGPT-User'],
    ['Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)', 'page', 'agent', 'OAI-SearchBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'page', 'agent', 'ClaudeBot'],
    ['Claude-User (claude-code/1.0; +https://support.anthropic.com/)', 'markdown', 'agent', 'Claude-User'],
    ['claude-web/1.0', 'page', 'agent', 'Claude-Web'],
    ['anthropic-ai', 'page', 'agent', 'anthropic-ai'],
    ['Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'page', 'agent', 'PerplexityBot'],
    ['Mozilla/5.0 (compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', 'page', 'agent', 'Perplexity-User'],
    ['Google-Extended', 'page', 'agent', 'Google-Extended'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'page', 'agent', 'Googlebot'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'page', 'agent', 'Bingbot'],
    ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'page', 'agent', 'CCBot'],
    ['Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', 'page', 'agent', 'Bytespider'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'page', 'agent', 'Applebot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)', 'page', 'agent', 'Amazonbot'],
    ['meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', 'page', 'agent', 'meta-externalagent'],
    ['cohere-ai', 'page', 'agent', 'cohere-ai'],
    ['DuckAssistBot/1.0; (+http://duckduckgo.com/duckassistbot.html)', 'page', 'agent', 'DuckAssistBot'],
    ['Mozilla/5.0 (compatible; YouBot/1.0; +https://about.you.com/youbot/)', 'page', 'agent', 'YouBot'],
    ['Mozilla/5.0 (Macintosh) AppleWebKit/537.36 (KHTML, like Gecko) Cursor/0.42.0 Chrome/124.0 Electron/30.0 Safari/537.36', 'page', 'agent', 'Cursor'],
    ['Mozilla/5.0 (compatible; robot-ish; GPTBot/1.0)', 'page', 'agent', 'GPTBot'],
    ['SomeCrawler/3.1', 'page', 'agent', 'bot'],
    ['Mozilla/5.0 (compatible; AhrefsBot/7.0)', 'llms.txt', 'agent', 'bot'],
    ['my-spider', 'page', 'agent', 'bot'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'page', 'person', ''],
    ['curl/8.5.0', 'page', 'person', ''],
    [undefined, 'page', 'person', ''],
    ['curl/8.5.0', 'markdown', 'agent', 'markdown'],
    ['Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0', 'llms.txt', 'agent', 'llms.txt'],
    [undefined, 'llms-full.txt', 'agent', 'llms-full.txt'],
    ['node', 'mcp', 'agent', 'mcp'],
    ['Mozilla/5.0 (compatible; ClaudeBot/1.0)', 'llms-full.txt', 'agent', 'ClaudeBot'],
  ])('%s fetching a %s is %s %s', (ua, kind, reader, agent) => {
    expect(classifyReader(ua, kind)).toEqual({ reader, agent });
  });
});

describe('servedKindOf', () => {
  it.each([
    ['guides/setup.html', 'guides/setup', { kind: 'page', path: 'guides/setup' }],
    ['index.html', 'index', { kind: 'page', path: 'index' }],
    ['guides/setup.md', 'guides/setup', { kind: 'markdown', path: 'guides/setup.md' }],
    ['llms.txt', undefined, { kind: 'llms.txt', path: 'llms.txt' }],
    ['fr/llms.txt', undefined, { kind: 'llms.txt', path: 'fr/llms.txt' }],
    ['llms-full.txt', undefined, { kind: 'llms-full.txt', path: 'llms-full.txt' }],
    ['_quire/assets/site.abc.css', undefined, undefined],
    ['sitemap.xml', undefined, undefined],
    ['images/logo.png', undefined, undefined],
  ])('%s is counted as %j', (file, page, expected) => {
    expect(servedKindOf(file, page)).toEqual(expected);
  });
});
