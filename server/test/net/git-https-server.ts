/**
 * A local git host over HTTPS for tests of the address policy: `git http-backend` (smart HTTP)
 * behind a Node HTTPS server with a throwaway self-signed certificate (git is told not to verify it
 * with GIT_SSL_NO_VERIFY=1). It records each request's Host header, TLS server name (SNI) and the
 * local address it arrived on, so a test can see where git really connected.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';

/** One request the server received. */
export interface GitHostRequest {
  method: string;
  url: string;
  host: string | undefined;
  /** the TLS server name git sent (SNI) */
  servername: string | false | null;
  /** the address it was received on (127.0.0.1, 127.0.0.2, ...) */
  local: string;
}

/** A running server: its port, what it received, and how to stop it. */
export interface GitHttpsServer {
  port: number;
  requests: GitHostRequest[];
  close(): Promise<void>;
}

let certificate: { key: Buffer; cert: Buffer } | undefined;

/** A self-signed certificate for `git.quire-test.invalid`, made once per test file. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  if (!certificate) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=git.quire-test.invalid', '-days', '1', '-keyout', path.join(dir, 'k.pem'), '-out', path.join(dir, 'c.pem')], { stdio: 'ignore' });
      certificate = { key: fs.readFileSync(path.join(dir, 'k.pem')), cert: fs.readFileSync(path.join(dir, 'c.pem')) };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return certificate;
}

/**
 * Serves the repositories under `root` (`https://<any host>:<port>/<dir name>`) on `address`.
 * @param options.redirectTo answer every request with a 302 to this base URL instead
 */
export async function startGitHttpsServer(root: string, options: { address?: string; port?: number; redirectTo?: string } = {}): Promise<GitHttpsServer> {
  const backend = path.join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const requests: GitHostRequest[] = [];
  const server = https.createServer(selfSigned(), (req, res) => {
    const socket = req.socket as TLSSocket;
    requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host, servername: socket.servername, local: socket.localAddress ?? '' });
    if (options.redirectTo) {
      res.writeHead(302, { location: `${options.redirectTo}${req.url ?? ''}` }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'https://x');
    const child = spawn(backend, [], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: socket.remoteAddress ?? '',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(child.stdin);
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('close', () => {
      const all = Buffer.concat(out);
      const crlf = all.indexOf('\r\n\r\n');
      const end = crlf >= 0 ? crlf : all.indexOf('\n\n');
      const skip = crlf >= 0 ? 4 : 2;
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of all.subarray(0, Math.max(end, 0)).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers).end(end >= 0 ? all.subarray(end + skip) : all);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.address ?? '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
