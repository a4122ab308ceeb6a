/**
 * Outbound requests under the address policy (decisions.md section 10), against local servers:
 * private addresses only with allowPrivateNetwork, redirects not followed, the time limit, names
 * resolved once and the connection made to the address that was checked (DNS rebinding).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundDestination, OutboundNetworkError, OutboundRefusedError, sendOutbound } from '../../src/net/outbound';
import { scriptedResolver } from './scripted-resolver';

interface Seen {
  method: string;
  url: string;
  host: string | undefined;
  body: string;
  local: string;
}

/** A local HTTP server on `address` recording what it received; `handle` answers. */
async function startServer(address: string, handle: (req: http.IncomingMessage, res: http.ServerResponse) => void, port = 0) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host, body, local: req.socket.localAddress ?? '' });
      handle(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, address, resolve));
  return { seen, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const open = { allowPrivateNetwork: true };
const strict = { allowPrivateNetwork: false };
const post = (url: string, extra: { timeoutMs?: number; body?: string } = {}) => ({
  url,
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: extra.body ?? '{"type":"build.deployed"}',
  ...(extra.timeoutMs !== undefined ? { timeoutMs: extra.timeoutMs } : {}),
});

describe('sendOutbound', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer('127.0.0.1', (req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${server.port}/target` }).end('moved');
      else if (req.url === '/big') res.writeHead(200, { 'content-type': 'text/plain' }).end(`${'é'.repeat(3000)}`);
      else if (req.url === '/nul') res.writeHead(200).end('a\0b');
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('late'), 5_000).unref();
      else res.writeHead(201, { 'x-answer': 'yes', 'set-cookie': ['a=1', 'b=2'] }).end('{"ok":true}');
    });
  });
  afterAll(() => server.close());

  it('POSTs to a local server when private networks are allowed and returns status, headers and body', async () => {
    const before = server.seen.length;
    const res = await sendOutbound(post(`http://127.0.0.1:${server.port}/hook?x=1`), open);
    expect(res).toMatchObject({ statusCode: 201, body: '{"ok":true}', headers: { 'x-answer': 'yes', 'set-cookie': 'a=1, b=2' } });
    expect(server.seen.slice(before)).toEqual([
      { method: 'POST', url: '/hook?x=1', host: `127.0.0.1:${server.port}`, body: '{"type":"build.deployed"}', local: '127.0.0.1' },
    ]);
  });

  it('refuses the same local server when private networks are not allowed, in every literal form, sending nothing', async () => {
    const before = server.seen.length;
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '2130706433', '0x7f.1', '0177.0.0.1', '127.1', 'localhost', 'localhost.', 'LOCALHOST']) {
      const err = await sendOutbound(post(`http://${host}:${server.port}/hook`), strict).catch((e: unknown) => e);
      expect(err, host).toBeInstanceOf(OutboundRefusedError);
      expect((err as Error).message, host).toMatch(/loopback|localhost/);
    }
    expect(server.seen.length).toBe(before);
  });

  it('refuses a name resolving to loopback, and a name with any private address among its answers', async () => {
    const before = server.seen.length;
    const loopback = scriptedResolver(['127.0.0.1']);
    await expect(sendOutbound(post(`http://hooks.example:${server.port}/`), strict, { resolve: loopback })).rejects.toThrow(
      new OutboundRefusedError('hooks.example resolves to 127.0.0.1, a loopback address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them)'),
    );
    const mixed = scriptedResolver(['93.184.215.14', '10.0.0.5']);
    await expect(sendOutbound(post(`http://hooks.example:${server.port}/`), strict, { resolve: mixed })).rejects.toThrow(/hooks\.example resolves to 10\.0\.0\.5, a private address/);
    expect(server.seen.length).toBe(before);
  });

  it('does not follow a redirect: the 3xx is the response', async () => {
    const before = server.seen.length;
    const res = await sendOutbound(post(`http://127.0.0.1:${server.port}/redirect`), open);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`http://127.0.0.1:${server.port}/target`);
    expect(server.seen.slice(before).map((s) => s.url)).toEqual(['/redirect']);
  });

  it('keeps the first 4 KiB of the body as UTF-8, dropping a character cut in two, and replaces NUL', async () => {
    const big = await sendOutbound(post(`http://127.0.0.1:${server.port}/big`), open);
    expect(big.body).toBe('é'.repeat(2048));
    expect((await sendOutbound(post(`http://127.0.0.1:${server.port}/nul`), open)).body).toBe('a\uFFFDb');
  });

  it('fails with OutboundNetworkError when the server does not answer in time', async () => {
    const err = await sendOutbound(post(`http://127.0.0.1:${server.port}/slow`, { timeoutMs: 300 }), open).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutboundNetworkError);
    expect((err as Error).message).toBe(`127.0.0.1 port ${server.port} did not answer within 300 ms`);
  });

  it('fails with OutboundNetworkError naming the address when the connection is refused or the name does not resolve', async () => {
    const closed = await startServer('127.0.0.1', (_req, res) => res.end());
    const port = closed.port;
    await closed.close();
    await expect(sendOutbound(post(`http://127.0.0.1:${port}/`), open)).rejects.toThrow(new OutboundNetworkError(`the connection to 127.0.0.1 port ${port} was refused`));
    await expect(sendOutbound(post('https://quire-test.invalid/hook'), strict)).rejects.toThrow(new OutboundNetworkError('could not resolve quire-test.invalid (ENOTFOUND)'));
  });

  it('resolves once and connects to the address it checked, keeping the name in the Host header (DNS rebinding)', async () => {
    // two servers on one port: the first answer of the DNS (127.0.0.1) and a second one (127.0.0.2)
    const second = await startServer('127.0.0.2', (_req, res) => res.writeHead(200).end('second'), server.port);
    try {
      const resolver = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
      const before = server.seen.length;
      const res = await sendOutbound(post(`http://rebind.example:${server.port}/hook`), open, { resolve: resolver });
      expect(res.statusCode).toBe(201);
      expect(resolver.calls).toEqual(['rebind.example']);
      expect(server.seen.slice(before)).toMatchObject([{ url: '/hook', host: `rebind.example:${server.port}`, local: '127.0.0.1' }]);
      expect(second.seen).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('never connects to the private second answer when the first answer checked was public', async () => {
    const resolver = scriptedResolver(['93.184.215.14'], ['127.0.0.1']);
    const before = server.seen.length;
    const err = await sendOutbound(post(`http://rebind.example:${server.port}/hook`, { timeoutMs: 2_000 }), strict, { resolve: resolver }).catch((e: unknown) => e);
    expect(resolver.calls).toEqual(['rebind.example']);
    expect(server.seen.length).toBe(before);
    // nothing listens on that port of the public address (refused, or no answer within the limit): the error names it
    expect(err).toBeInstanceOf(OutboundNetworkError);
    expect((err as Error).message).toContain('rebind.example (93.184.215.14) port');
  });
});

describe('checkOutboundDestination', () => {
  it.each([
    ['ftp://hooks.example/x', 'http:// or https://'],
    ['https://user:pw@hooks.example/x', 'user name or password'],
    ['https://hooks.example/a b', 'spaces'],
    [`https://hooks.example/${'a'.repeat(2048)}`, 'at most 2048'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://169.254.169.254/latest', 'link-local'],
  ])('refuses %s (%s)', async (url, words) => {
    await expect(checkOutboundDestination(url, strict)).rejects.toThrow(OutboundRefusedError);
    await expect(checkOutboundDestination(url, strict)).rejects.toThrow(words);
  });

  it('resolves the name and checks every address', async () => {
    await expect(checkOutboundDestination('https://hooks.example/x', strict, { resolve: scriptedResolver(['2606:4700::1111', 'fd00::1']) })).rejects.toThrow(
      /hooks\.example resolves to fd00::1, a unique-local/,
    );
    await expect(checkOutboundDestination('https://hooks.example/x', strict, { resolve: scriptedResolver(['93.184.215.14']) })).resolves.toBeUndefined();
  });

  it('accepts a name that does not resolve yet, and private hosts when allowed, resolving nothing', async () => {
    await expect(checkOutboundDestination('https://quire-test.invalid/x', strict)).resolves.toBeUndefined();
    const resolver = scriptedResolver(['10.0.0.5']);
    await expect(checkOutboundDestination('http://10.0.0.5:8080/x', open, { resolve: resolver })).resolves.toBeUndefined();
    await expect(checkOutboundDestination('http://hooks.internal/x', open, { resolve: resolver })).resolves.toBeUndefined();
    expect(resolver.calls).toEqual([]);
  });
});
