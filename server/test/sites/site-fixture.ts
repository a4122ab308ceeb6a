import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { newId } from '@quire/shared/ids';
import { loadConfig } from '../../src/env';
import { openDb, sqliteOf, type Db } from '../../src/db/client';
import { createAppContext } from '../../src/context';
import type { EventBus } from '../../src/events';
import sitesPlugin from '../../src/sites/index';

/** A Fastify app with only site hosting (plus a catch-all standing in for the API), on a temp data dir. */
export interface SiteHarness {
  app: FastifyInstance;
  db: Db;
  events: EventBus;
  dataDir: string;
  /** Inserts an organization-owned project with stored `settings` (default none: every switch at its default); returns its id. */
  addProject(slug: string, customDomain?: string, settings?: Record<string, boolean>): string;
  /**
   * Writes a deployment directory `sites/<projectId>/<buildId>` from `files` (path → content;
   * a `{ symlink }` value makes a symbolic link), records the Build and Deployment rows and emits
   * `deployment.changed`. Returns the deployment's absolute directory.
   */
  deploy(projectId: string, files: Record<string, string | Buffer | { symlink: string }>, preview?: string): string;
  close(): Promise<void>;
}

/** Builds a {@link SiteHarness}. */
export async function createSiteHarness(): Promise<SiteHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sites-'));
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' });
  const db = await openDb(config.databaseUrl);
  const app = Fastify({ logger: false });
  const ctx = createAppContext({ config, db, log: app.log });
  const events = ctx.events;
  app.decorate('ctx', ctx);
  await app.register(sitesPlugin);
  app.get('/*', async () => ({ api: true }));
  await app.ready();
  const orgId = newId('organization');
  sqliteOf(db).prepare(`INSERT INTO Organization (id, name, plan, createdAt) VALUES (?, 'Org', 'pro', ?)`).run(orgId, Date.now());
  return {
    app,
    db,
    events,
    dataDir,
    addProject(slug, customDomain, settings = {}) {
      const id = newId('project');
      sqliteOf(db)
        .prepare(
          `INSERT INTO Project (id, orgId, name, slug, repoBranch, settings, customDomain, createdAt, updatedAt) VALUES (?, ?, ?, ?, 'main', ?, ?, ?, ?)`,
        )
        .run(id, orgId, slug, slug, JSON.stringify(settings), customDomain ?? null, Date.now(), Date.now());
      return id;
    },
    deploy(projectId, files, preview) {
      const buildId = newId('build');
      const rel = `sites/${projectId}/${buildId}`;
      const dir = path.join(dataDir, rel);
      for (const [file, content] of Object.entries(files)) {
        const abs = path.join(dir, file);
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        if (typeof content === 'object' && !Buffer.isBuffer(content)) fs.symlinkSync(content.symlink, abs);
        else fs.writeFileSync(abs, content);
      }
      const now = Date.now();
      sqliteOf(db)
        .prepare(`INSERT INTO Build (id, projectId, status, trigger, branch, isPreview, createdAt) VALUES (?, ?, 'deployed', 'api', 'main', ?, ?)`)
        .run(buildId, projectId, preview ? 1 : 0, now);
      sqliteOf(db)
        .prepare(`INSERT INTO Deployment (id, projectId, buildId, kind, previewName, dir, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?)`)
        .run(newId('deployment'), projectId, buildId, preview ? 'preview' : 'production', preview ?? '', rel, now);
      events.emit('deployment.changed', { projectId });
      return dir;
    },
    async close() {
      await app.close();
      await db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A small deployment in the builder's layout whose every page names `marker`. */
export function siteFiles(marker: string, extra: Record<string, string | Buffer | { symlink: string }> = {}) {
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title} - ${marker}</title><link rel="stylesheet" href="/_quire/assets/site.0123abcd.css"></head>` +
    `<body><h1>${title}</h1><p>${marker} ${'lorem ipsum dolor sit amet '.repeat(40)}</p></body></html>`;
  return {
    'manifest.json': JSON.stringify({
      version: 1,
      buildId: 'bld_x',
      projectId: 'prj_x',
      createdAt: new Date().toISOString(),
      home: 'introduction',
      pages: [
        { path: 'introduction', title: 'Introduction', file: 'introduction.html' },
        { path: 'guides/setup', title: 'Setup', file: 'guides/setup.html' },
        { path: 'guides/index', title: 'Guides', file: 'guides/index.html' },
      ],
      redirects: [
        { source: '/old-setup', destination: '/guides/setup', permanent: true },
        { source: '/beta/:slug*', destination: '/guides/:slug*', permanent: false },
      ],
      notFound: '404.html',
      assets: ['_quire/assets/site.0123abcd.css'],
      generated: [
        'introduction.html', 'introduction.md', 'guides/setup.html', 'guides/setup.md', 'guides/index.html',
        'llms.txt', 'sitemap.xml', '404.html',
      ],
    }),
    'introduction.html': page('Introduction'),
    'introduction.md': `# Introduction\n\n${marker}\n`,
    'guides/setup.html': page('Setup'),
    'guides/setup.md': `# Setup\n\n${marker}\n`,
    'guides/index.html': page('Guides'),
    'llms.txt': `# ${marker}\n\n- [Introduction](/introduction.md)\n`,
    'sitemap.xml': `<?xml version="1.0"?><urlset><url><loc>/introduction</loc></url></urlset>`,
    '404.html': page('Page not found'),
    '_quire/assets/site.0123abcd.css': `body{color:#111}/* ${marker} */ ${'.a{margin:0}'.repeat(50)}`,
    'images/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
    ...extra,
  };
}
