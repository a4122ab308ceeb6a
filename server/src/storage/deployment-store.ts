/**
 * The deployment storage seam (decisions.md section 1: local disk embedded, an S3-compatible
 * bucket when scaled out). A build always writes its site to a worker-local staging directory
 * (`DataPaths.site`); the store then makes it durable ({@link DeploymentStore.publish}), points
 * a channel at it ({@link DeploymentStore.activate}: the deployment goes live by that one write),
 * serves its files to site hosting ({@link DeploymentStore.open}) and deletes old ones
 * ({@link DeploymentStore.prune}). Implementations: `local-store.ts` (default; today's layout,
 * nothing copied) and `s3-store.ts`.
 */

/**
 * What a channel serves: a project's production site, one preview (by branch slug), or one
 * documentation version (by label; served under `/<label>/` of the production site,
 * interface-spec.md "Versioning > Documentation versions").
 */
export interface DeploymentChannel {
  projectId: string;
  kind: 'production' | 'preview' | 'version';
  /** branch slug of a preview, label of a version; "" for production */
  previewName: string;
}

/** One file of a deployment as stored. */
export interface StoredFile {
  body: Buffer;
  /** when the file was written (local: mtime; S3: LastModified) */
  modified: Date;
}

/** Read access to one deployment, for serving (`DeploymentSite`). */
export interface DeploymentFiles {
  /** unique across deployments and stores (a cache key prefix): the absolute directory or the object prefix */
  readonly key: string;
  /**
   * Every regular file of the deployment as `/`-separated relative paths (`guides/setup.html`),
   * `manifest.json` included; symbolic links and special files never appear.
   * @throws Error when the deployment cannot be listed.
   */
  list(): Promise<Set<string>>;
  /**
   * The bytes of a listed file.
   * @throws Error when it cannot be read (gone, store unreachable).
   */
  read(file: string): Promise<StoredFile>;
}

/** Where deployments live; one per process, on the app context (`ctx.deploymentStore`). */
export interface DeploymentStore {
  /** `local` (data directory) or `s3` (bucket) */
  readonly kind: 'local' | 's3';
  /**
   * Whether channels have pointer objects ({@link activate}/{@link pointer}). Without them (local
   * disk) the newest Deployment row of a channel is what is served, as before the seam existed.
   */
  readonly hasPointers: boolean;
  /**
   * Makes a build's staged site durable. Local: nothing moves (the staging directory is the
   * deployment). S3: every regular file is uploaded under `deployments/<projectId>/<buildId>/`
   * (bounded parallel uploads, `manifest.json` last, so a listing with a manifest is complete),
   * then the staging directory is removed.
   * @param stagingDir absolute directory the builder wrote (`DataPaths.site`)
   * @returns the deployment's location for its Deployment row (`dir`): `sites/<projectId>/<buildId>`
   *   relative to the data dir (local), or the object prefix `deployments/<projectId>/<buildId>` (S3)
   * @throws Error when an upload fails (what was uploaded is deleted again).
   */
  publish(projectId: string, buildId: string, stagingDir: string): Promise<string>;
  /**
   * Points a channel at a published deployment; with pointers this single write is what makes it
   * live (`pointers/<projectId>/production.json`, `pointers/<projectId>/preview/<name>.json`,
   * `pointers/<projectId>/version/<label>.json`).
   * Local: nothing to write (the Deployment row is the pointer).
   * @throws Error when the pointer cannot be written.
   */
  activate(channel: DeploymentChannel, dir: string): Promise<void>;
  /**
   * The `dir` a channel's pointer names, read from the store now (callers cache it); `null` when
   * the channel has no pointer (or the store has none).
   * @throws Error when the store cannot be reached.
   */
  pointer(channel: DeploymentChannel): Promise<string | null>;
  /**
   * Removes a channel's pointer, so the channel serves nothing (a preview taken down:
   * deployments/preview-removal.ts). Deleting a pointer that does not exist is not an error.
   * Local: nothing to delete (removing the channel's Deployment rows is what takes it down).
   * @throws Error when the store cannot be reached.
   */
  deactivate(channel: DeploymentChannel): Promise<void>;
  /** Read access to a deployment by its `dir` (nothing is read until asked). */
  open(dir: string): DeploymentFiles;
  /**
   * Adds files to a published deployment (a reindex's new search index generation,
   * search/generations.ts), where every process reads them (`open(dir)` lists them afterwards).
   * Never replaces a file the build wrote: callers write new names only. Local: each file is
   * written to a temporary name then renamed; S3: one PutObject per file.
   * @param files deployment-relative path (`_quire/search/reindex/<jobId>/index.json`) to bytes
   * @throws Error when a file cannot be written.
   */
  writeFiles(dir: string, files: ReadonlyMap<string, Buffer>): Promise<void>;
  /**
   * Deletes a project's finished deployments (those holding `manifest.json`) whose build id is not
   * in `keepBuildIds`; a deployment still being written is never touched.
   * @returns the build ids removed
   */
  prune(projectId: string, keepBuildIds: string[]): Promise<string[]>;
  /** Deletes one deployment whatever its state (a build published but never recorded). */
  remove(dir: string): Promise<void>;
  /** Deletes everything of a deleted project (deployments, pointers and build logs). */
  removeProject(projectId: string): Promise<void>;
  /**
   * Keeps a finished build's log where every process can read it (`logs/<projectId>/<buildId>.log`
   * in S3). The local store keeps logs where the builder wrote them: a no-op.
   */
  saveBuildLog(projectId: string, buildId: string, text: string): Promise<void>;
  /** A build log saved by {@link saveBuildLog}, or null when there is none (always null for the local store). */
  buildLog(projectId: string, buildId: string): Promise<string | null>;
  /** Checks that the store can be reached (for readiness). @throws Error when it cannot. */
  check(): Promise<void>;
  /** Releases connections. */
  close(): void;
}

/** Channel key for maps and pointer names: `production`, `preview/<name>` or `version/<label>`. */
export function channelName(channel: DeploymentChannel): string {
  return channel.kind === 'production' ? 'production' : `${channel.kind}/${channel.previewName}`;
}
