import { EventEmitter } from 'node:events';

/**
 * In-process notifications between services and caches of one server process.
 * Emitters: services after a committed write. Listeners: caches (API keys, projects, site
 * resolution) that must drop stale entries at once. Payload shapes are fixed here.
 */
export interface QuireEvents {
  /** A project was created, changed (slug, name, settings, domain...) or deleted. */
  'project.changed': [{ projectId: string; slug?: string; deleted?: boolean }];
  /** An API key was revoked, rotated or deleted. */
  'apiKey.revoked': [{ keyId: string; hash: string }];
  /** A new deployment went live (or one was removed) for a project. */
  'deployment.changed': [{ projectId: string }];
  /** A build changed status (for progress streams and outgoing webhooks later). */
  'build.status': [{ projectId: string; buildId: string; status: string }];
}

/** Typed event bus; one per app instance (never global, so tests stay isolated). */
export class EventBus extends EventEmitter<QuireEvents> {}
