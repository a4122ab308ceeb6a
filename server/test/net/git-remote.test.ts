/**
 * The options that pin git to checked addresses (decisions.md section 10), for the URL git will
 * really use: curl's resolve entry for https, ssh's HostName for ssh, nothing for a local mirror.
 */
import { describe, expect, it } from 'vitest';
import { OutboundRefusedError } from '../../src/net/errors';
import { isLocalGitUrl, pinGitRemote } from '../../src/net/git-remote';
import { scriptedResolver } from './scripted-resolver';

const strict = { allowPrivateNetwork: false };
const open = { allowPrivateNetwork: true };

describe('isLocalGitUrl', () => {
  it.each([
    ['/srv/mirrors/docs.git', true],
    ['file:///srv/mirrors/docs.git', true],
    ['./docs', true],
    ['docs', true],
    ['mirrors/a:b', true],
    ['https://github.com/a/b', false],
    ['ssh://git@github.com/a/b', false],
    ['git@github.com:a/b', false],
    ['github.com:a/b', false],
  ])('%s: %s', (url, local) => {
    expect(isLocalGitUrl(url)).toBe(local);
  });
});

describe('pinGitRemote', () => {
  it('pins an https host to every address it resolved to, IPv6 in brackets, and turns redirects off', async () => {
    const resolve = scriptedResolver(['2606:4700::1111', '93.184.215.14']);
    expect(await pinGitRemote('https://git.example.com/acme/docs.git', strict, { resolve })).toEqual({
      config: ['-c', 'http.followRedirects=false', '-c', 'http.curloptResolve=git.example.com:443:[2606:4700::1111],93.184.215.14'],
      sshOptions: [],
      curlResolve: true,
    });
    expect(await pinGitRemote('https://git.example.com:8443/a', strict, { resolve: scriptedResolver(['93.184.215.14']) })).toMatchObject({
      config: ['-c', 'http.followRedirects=false', '-c', 'http.curloptResolve=git.example.com:8443:93.184.215.14'],
    });
    expect(resolve.calls).toEqual(['git.example.com']);
  });

  it('pins an ssh host through HostName, keeping the name for the host key', async () => {
    expect(await pinGitRemote('ssh://git@git.example.com:2222/a.git', strict, { resolve: scriptedResolver(['93.184.215.14']) })).toEqual({
      config: ['-c', 'http.followRedirects=false'],
      sshOptions: ['-o', 'HostName=93.184.215.14', '-o', 'HostKeyAlias=[git.example.com]:2222'],
      curlResolve: false,
    });
    expect(await pinGitRemote('git@git.example.com:a.git', strict, { resolve: scriptedResolver(['2606:4700::1111']) })).toMatchObject({
      sshOptions: ['-o', 'HostName=2606:4700::1111', '-o', 'HostKeyAlias=git.example.com'],
    });
  });

  it('resolves nothing for a local mirror or an IP address, and checks the address itself', async () => {
    const resolve = scriptedResolver(['10.0.0.5']);
    expect(await pinGitRemote('/srv/mirrors/docs.git', strict, { resolve })).toEqual({ config: ['-c', 'http.followRedirects=false'], sshOptions: [], curlResolve: false });
    expect(await pinGitRemote('https://93.184.215.14/a', strict, { resolve })).toEqual({ config: ['-c', 'http.followRedirects=false'], sshOptions: [], curlResolve: false });
    expect(await pinGitRemote('https://10.0.0.5/a', open, { resolve })).toEqual({ config: ['-c', 'http.followRedirects=false'], sshOptions: [], curlResolve: false });
    await expect(pinGitRemote('https://10.0.0.5/a', strict, { resolve })).rejects.toThrow(/the host 10\.0\.0\.5 is a private address/);
    await expect(pinGitRemote('git@[::ffff:127.0.0.1]:a', strict, { resolve })).rejects.toThrow(/loopback/);
    expect(resolve.calls).toEqual([]);
  });

  it('refuses a name resolving to a non-public address, and a URL it cannot read', async () => {
    await expect(pinGitRemote('https://git.example.com/a', strict, { resolve: scriptedResolver(['93.184.215.14', '169.254.169.254']) })).rejects.toThrow(
      new OutboundRefusedError('git.example.com resolves to 169.254.169.254, a link-local address; loopback, private and link-local hosts are not allowed (QUIRE_ALLOW_PRIVATE_NETWORK=1 allows them)'),
    );
    await expect(pinGitRemote('git://git.example.com/a', strict, { resolve: scriptedResolver(['93.184.215.14']) })).rejects.toThrow('git would connect to a URL Quire cannot check: the "git" transport is not allowed');
    // with private networks allowed it still resolves once and pins
    expect(await pinGitRemote('https://git.internal/a', open, { resolve: scriptedResolver(['10.0.0.5']) })).toMatchObject({
      config: ['-c', 'http.followRedirects=false', '-c', 'http.curloptResolve=git.internal:443:10.0.0.5'],
    });
  });
});
