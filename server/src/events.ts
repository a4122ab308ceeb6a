import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

/**
 * Notifications between services and caches, within one server process and, with a transport,
 * between every process of one installation (decisions.md section 1; architecture.md).
 * Emitters: services after a committed write. Listeners: caches (API keys, projects, site
 * resolution) that must drop stale entries at once. Payload shapes are fixed here and must stay
 * plain JSON (they cross processes as JSON).
 */
export interface QuireEvents {
  /** A project was created, changed (slug, name, settings, domain...) or deleted. */
  'project.changed': [{ projectId: string; slug?: string; deleted?: boolean }];
  /** An API key was revoked, rotated or deleted. */
  'apiKey.revoked': [{ keyId: string; hash: string }];
  /** An organization's plan or limits changed: keys of that organization carry stale limits. */
  'organization.changed': [{ orgId: string }];
  /** A new deployment went live (or one was removed) for a project. */
  'deployment.changed': [{ projectId: string }];
  /** A build changed status (progress streams, cancellation, outgoing webhooks later). */
  'build.status': [{ projectId: string; buildId: string; status: string }];
  /**
   * An audience profile of the project was created, changed or deleted, or a token was issued for it
   * (services/audiences.ts, services/audience-tokens.ts): token verification caches drop it at once.
   */
  'audience.changed': [{ projectId: string; profileId: string }];
  /** An access rule or IP allowlist of the project was created, changed or deleted (services/access-rules.ts): access policy caches drop it at once. */
  'access.changed': [{ projectId: string }];
  /** A reindex job of the project completed: its new search index generation answers from now on (search/generations.ts). */
  'search.reindexed': [{ projectId: string; jobId: string }];
  /**
   * Local only, never sent: the transport's connection came back after a loss. Events of other
   * processes may have been missed meanwhile, so listeners that keep caches reload or empty them.
   */
  reconnected: [];
}

/** Name of an event that crosses processes (every event but `reconnected`). */
export type SharedEventName = Exclude<keyof QuireEvents, 'reconnected'>;

/** Events a transport carries to the other processes; `reconnected` stays in the process that saw it. */
export const SHARED_EVENTS: ReadonlySet<string> = new Set<SharedEventName>([
  'project.changed',
  'apiKey.revoked',
  'organization.changed',
  'deployment.changed',
  'build.status',
  'audience.changed',
  'access.changed',
  'search.reindexed',
]);

/**
 * What crosses a transport: one JSON object per event, `{"origin","event","payload"}`.
 * `origin` is the sending bus's {@link EventBus.origin}; a bus ignores its own messages (its
 * local listeners already ran synchronously in `emit`).
 */
export interface EventMessage {
  origin: string;
  event: SharedEventName;
  payload: unknown;
}

/**
 * Carries events between processes (implementations: events/redis-transport.ts). Delivery is at
 * most once: a message published while a subscriber is disconnected is lost, which is why
 * `onReconnect` exists.
 */
export interface EventTransport {
  /** Sends one encoded {@link EventMessage} to every subscribed process (itself included); never throws. */
  publish(message: string): void;
  /**
   * Starts delivering messages of other processes to `onMessage` and reports each re-established
   * connection to `onReconnect`.
   * @returns a promise settled once messages are being received (rejected when the transport cannot subscribe).
   */
  start(onMessage: (message: string) => void, onReconnect: () => void): Promise<void>;
  /** Stops receiving and closes the transport's connections. */
  close(): Promise<void>;
}

/**
 * Typed event bus; one per app context (never global, so tests stay isolated). Without a transport
 * (the default) it is a plain in-process `EventEmitter`. With one, {@link SHARED_EVENTS} emitted
 * here also reach the buses of other processes; local listeners still run synchronously inside
 * `emit`, and the bus's own messages coming back are ignored, so nothing runs twice.
 */
export class EventBus extends EventEmitter<QuireEvents> {
  /** Identifies this bus in transported messages (one per bus, so two apps in one process differ too). */
  readonly origin = randomUUID();
  private readonly started: Promise<void>;

  /**
   * @param transport carries shared events to other processes; none = this process only.
   * @param onError told about a message that could not be decoded (it is dropped).
   */
  constructor(
    private readonly transport: EventTransport | null = null,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    super();
    this.started = transport
      ? transport.start((message) => this.receive(message), () => super.emit('reconnected'))
      : Promise.resolve();
    this.started.catch(() => {}); // reported by ready()
  }

  /** True when events cross processes. */
  get distributed(): boolean {
    return this.transport !== null;
  }

  override emit<K>(eventName: keyof QuireEvents | K, ...args: K extends keyof QuireEvents ? QuireEvents[K] : never): boolean {
    const handled = super.emit(eventName as keyof QuireEvents, ...(args as never));
    if (this.transport && typeof eventName === 'string' && SHARED_EVENTS.has(eventName)) {
      const message: EventMessage = { origin: this.origin, event: eventName as SharedEventName, payload: args[0] };
      this.transport.publish(JSON.stringify(message));
    }
    return handled;
  }

  /**
   * Resolves once events of other processes are being received (at once without a transport).
   * @throws the transport's error when it could not subscribe (e.g. Redis unreachable).
   */
  ready(): Promise<void> {
    return this.started;
  }

  /** Closes the transport (on app close); local listeners keep working. */
  async close(): Promise<void> {
    await this.transport?.close();
  }

  private receive(raw: string): void {
    let message: EventMessage;
    try {
      message = JSON.parse(raw) as EventMessage;
    } catch (err) {
      this.onError(err);
      return;
    }
    if (!message || message.origin === this.origin || !SHARED_EVENTS.has(message.event)) return;
    if (typeof message.payload !== 'object' || message.payload === null) {
      this.onError(new Error(`event ${message.event} without a payload object`));
      return;
    }
    super.emit(message.event, message.payload as never);
  }
}
