// Boots the preview worker thread: registers tsx's loader in this thread (its `--import tsx` hook
// does not register itself in worker threads on every Node version), then runs the TypeScript entry.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
