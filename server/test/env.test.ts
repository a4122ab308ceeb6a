import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/env';

describe('configuration from the environment (decisions.md section 1)', () => {
  it('defaults to the embedded setup: port 4000 on 127.0.0.1, ./.quire, SQLite inside it, sites on localhost', () => {
    const config = loadConfig({}, '/srv/quire');
    expect(config.port).toBe(4000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.dataDir).toBe(path.resolve('/srv/quire', '.quire'));
    expect(config.databaseUrl).toBe(`file:${path.resolve('/srv/quire', '.quire', 'quire.db')}`);
    expect(config.sitesDomain).toBe('localhost');
    expect(config.allowFileRepos).toBe(false);
    expect(config.defaultPlan).toBe('pro');
    expect(config.buildConcurrency).toBe(1);
  });

  it('reads every variable it documents', () => {
    const config = loadConfig(
      { PORT: '8080', HOST: '0.0.0.0', QUIRE_DATA_DIR: '/data', QUIRE_SITES_DOMAIN: 'docs.example.com', QUIRE_ALLOW_FILE_REPOS: '1', QUIRE_DEFAULT_PLAN: 'free', QUIRE_BUILD_CONCURRENCY: '2', QUIRE_ADMIN_EMAIL: 'ops@example.com' },
      '/ignored',
    );
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: '/data', databaseUrl: 'file:/data/quire.db', sitesDomain: 'docs.example.com', allowFileRepos: true, defaultPlan: 'free', buildConcurrency: 2, adminEmail: 'ops@example.com' });
  });

  it('names the variable and what was expected when a value is invalid', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ QUIRE_DEFAULT_PLAN: 'gold' })).toThrow(/QUIRE_DEFAULT_PLAN/);
    expect(() => loadConfig({ QUIRE_BUILD_CONCURRENCY: '0' })).toThrow(/QUIRE_BUILD_CONCURRENCY/);
  });

  it('takes a PostgreSQL URL (postgres:// or postgresql://) and refuses other databases naming what works', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://localhost/quire' }).databaseUrl).toBe('postgres://localhost/quire');
    expect(loadConfig({ DATABASE_URL: 'postgresql://u@db:5432/quire' }).databaseUrl).toBe('postgresql://u@db:5432/quire');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://localhost/quire' })).toThrow(/DATABASE_URL.*file:.*PostgreSQL/);
  });
});
