import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerErrors } from '../src/core/web-server';
import { startWebCore, type WebCore } from './helpers/web-core';

/**
 * Web mode's HTTP server against what any web page (an `<img src>`) or local program can send:
 * malformed request targets, methods and headers, written on raw sockets because fetch and
 * http.request normalise or refuse them. Each gets a 4xx (or the normal answer) and the core
 * keeps answering.
 */
let web: WebCore;
let port: number;

interface RawAnswer {
  /** 0 when the connection closed without an answer */
  status: number;
  head: string;
  body: string;
}

/** Sends `text` as is on a new connection and reads until the server closes it. */
function raw(text: string, to = () => port): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(to(), '127.0.0.1', () => socket.write(text, 'latin1'));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => socket.destroy()); // a reset after a refusal: the answer read so far counts
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('latin1');
      const split = answer.indexOf('\r\n\r\n');
      const head = split < 0 ? answer : answer.slice(0, split);
      const body = split < 0 ? '' : answer.slice(split + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, head, body: /\r\ntransfer-encoding: chunked/i.test(head) ? dechunk(body) : body });
    });
  });
}

/** The data of a chunked body (RFC 9112 section 7.1). */
function dechunk(body: string): string {
  let data = '';
  for (let at = 0; ; ) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!size) return data;
    data += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** A GET request line for `target` with a Host of this server and `extra` header lines. */
function get(target: string, extra: string[] = [], method = 'GET'): string {
  return [`${method} ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close', ...extra, '', ''].join('\r\n');
}

async function expectCoreStillAnswers(): Promise<void> {
  const ok = await raw(get('/trpc/session.status'));
  expect(ok.status).toBe(200);
  expect(JSON.parse(ok.body)).toMatchObject({ result: { data: { signedIn: false } } });
}

beforeAll(async () => {
  web = await startWebCore('requests');
  ({ port } = web);
});

afterAll(async () => {
  await web?.close();
});

describe('desktop:web server: malformed request targets', () => {
  it.each([
    ['a bad percent-encoding', '/%', 400, /malformed percent-encoding/],
    ['a bad percent-encoding in a segment', '/%zz/index.html', 400, /malformed percent-encoding/],
    ['a cut UTF-8 sequence', '/trpc/%E0%A4%A', 400, /malformed percent-encoding/],
    ['an encoded NUL', '/assets/%00.js', 400, /NUL/],
    ['the asterisk-form', '*', 400, /must be a path/],
    ['another scheme', 'https://127.0.0.1/', 400, /must be a path/],
    ['an absolute-form target with user information', 'http://user@127.0.0.1/trpc/session.status', 400, /Host is not/],
    ['an absolute-form target of another site', 'http://evil.example/trpc/session.status', 403, /localhost only/],
    ['a path of 9,000 characters', `/${'a'.repeat(9000)}`, 414, /longer than 8000/],
    ['an empty first segment', '//', 404, /Not found/],
    ['a path like a scheme-relative URL', '//evil.example/x', 404, /Not found/],
    ['encoded dot segments', '/..%2f..%2fpackage.json', 404, /Not found/],
  ])('answers %s with its status and keeps serving', async (_what, target, status, message) => {
    const answer = await raw(get(target));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatch(message);
    await expectCoreStillAnswers();
  });

  it('answers an absolute-form target for this computer as its path (RFC 9112 section 3.2.2)', async () => {
    const answer = await raw(get(`http://127.0.0.1:${port}/trpc/session.status`));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ result: { data: { signedIn: false } } });
  });

  it('serves a query of 9,000 characters: tRPC queries carry their input there', async () => {
    const input = encodeURIComponent(JSON.stringify({ projectId: 'prj_x', path: 'a.md', text: 'word '.repeat(1500) }));
    const answer = await raw(get(`/trpc/lint.run?input=${input}`));
    expect(input.length).toBeGreaterThan(9000);
    expect(answer.status).toBe(404); // the router's answer: no such project opened
    expect(answer.body).toContain('Open the project first.');
  });

  it('leaves a malformed query string to the router, which answers it', async () => {
    const answer = await raw(get('/trpc/session.status?input=%'));
    expect(answer.status).toBeGreaterThanOrEqual(200);
    expect(answer.status).toBeLessThan(500);
    await expectCoreStillAnswers();
  });

  it.each([
    ['a raw NUL', '/a\0b'],
    ['a space', '/a b'],
    ['a control character', '/a\x01b'],
    ['the authority-form outside CONNECT', 'example.com:443'],
  ])('refuses a target with %s with 400 (Node\'s parser)', async (_what, target) => {
    expect((await raw(get(target))).status).toBe(400);
    await expectCoreStillAnswers();
  });

  it('refuses a request line over 16 KiB with 431', async () => {
    expect((await raw(get(`/${'a'.repeat(20_000)}`))).status).toBe(431);
    await expectCoreStillAnswers();
  });
});

describe('desktop:web server: odd methods', () => {
  it.each([
    ['PROPFIND', '/', 405],
    ['DELETE', '/index.html', 405],
    ['OPTIONS', '/', 405],
    ['FOO', '/', 400],
    ['get', '/', 400],
    ['DELETE', '/trpc/session.status', 405],
    ['PUT', '/trpc/session.status', 405],
    ['HEAD', '/trpc/session.status', 405],
  ])('answers %s %s with %i', async (method, target, status) => {
    const answer = await raw(get(target, [], method));
    expect(answer.status).toBe(status);
    if (status === 405) expect(answer.head).toMatch(target.startsWith('/trpc/') ? /\r\nallow: GET, POST\r\n/i : /\r\nallow: GET, HEAD\r\n/i);
    await expectCoreStillAnswers();
  });

  it('answers CONNECT with 405 instead of dropping the connection', async () => {
    const answer = await raw(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    expect(answer.status).toBe(405);
    await expectCoreStillAnswers();
  });
});

describe('desktop:web server: malformed and duplicate headers', () => {
  const line = (host: string, version = '1.1') => `GET /trpc/session.status HTTP/${version}\r\n${host}Connection: close\r\n\r\n`;

  it.each([
    ['no Host', line('', '1.0'), 400, /Host header is missing/],
    ['no Host in HTTP/1.1 (Node\'s parser)', line(''), 400, /^$/],
    ['two Host headers', line(`Host: 127.0.0.1\r\nHost: evil.example\r\n`), 400, /More than one Host/],
    ['two Host headers naming this computer', line(`Host: 127.0.0.1\r\nhost: localhost\r\n`), 400, /More than one Host/],
    ['an empty Host', line('Host: \r\n'), 400, /Host is not/],
    ['a Host with a space', line('Host: local host\r\n'), 400, /Host is not/],
    ['a Host with two values', line('Host: localhost, evil.example\r\n'), 400, /Host is not/],
    ['a Host with user information', line('Host: me@localhost\r\n'), 400, /Host is not/],
    ['a Host with a bad port', line('Host: localhost:http\r\n'), 400, /Host is not/],
    ['a Host of another site', line('Host: evil.example\r\n'), 403, /localhost only/],
    ['the Host 0.0.0.0', line(`Host: 0.0.0.0:5199\r\n`), 403, /localhost only/],
    ['a Host under .localhost', line('Host: app.localhost:5199\r\n'), 200, /signedIn/],
    ['the Host [::1]', line('Host: [::1]:5199\r\n'), 200, /signedIn/],
  ])('answers %s with its status', async (_what, request, status, body) => {
    const answer = await raw(request);
    expect(answer.status).toBe(status);
    expect(answer.body).toMatch(body);
    await expectCoreStillAnswers();
  });

  it.each([
    ['a header line without a colon', ['Not a header']],
    ['a header name with a space', ['Bad Name: x']],
    ['two different Content-Lengths', ['Content-Length: 1', 'Content-Length: 2']],
    ['Content-Length and Transfer-Encoding', ['Content-Length: 1', 'Transfer-Encoding: chunked']],
    ['an obsolete folded header', ['X-A: 1', ' folded']],
  ])('refuses %s with 400 (Node\'s parser)', async (_what, extra) => {
    expect((await raw(get('/trpc/session.status', extra, 'POST'))).status).toBe(400);
    await expectCoreStillAnswers();
  });

  it('refuses headers over 16 KiB with 431', async () => {
    expect((await raw(get('/', [`X-Big: ${'b'.repeat(20_000)}`]))).status).toBe(431);
    await expectCoreStillAnswers();
  });

  it('refuses two Origin headers on a call to the core', async () => {
    const answer = await raw(get('/trpc/session.status', [`Origin: http://127.0.0.1:${port}`, 'Origin: http://evil.example']));
    expect(answer.status).toBe(403);
    await expectCoreStillAnswers();
  });
});

describe('answerErrors', () => {
  let failing: http.Server;
  let failingPort: number;

  beforeAll(async () => {
    failing = http.createServer(
      answerErrors((req, res) => {
        if (req.url === '/throws') throw new Error('thrown');
        if (req.url === '/rejects') return Promise.reject(new Error('rejected'));
        res.end('fine');
      }),
    );
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', r));
    failingPort = (failing.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((r) => failing.close(r)));

  it.each(['/throws', '/rejects'])('answers a handler that %s with 500 and keeps serving', async (target) => {
    const answer = await raw(get(target), () => failingPort);
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('Quire Desktop could not answer this request.');
    expect((await raw(get('/'), () => failingPort)).body).toBe('fine');
  });
});
