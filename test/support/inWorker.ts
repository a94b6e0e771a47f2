import { buildSync } from 'esbuild';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

/** Each entry bundled once per test process (a worker that loaded TypeScript itself would take seconds). */
const bundles = new Map<string, string>();

function bundled(entry: string): string {
  let file = bundles.get(entry);
  if (file === undefined) {
    file = path.join(mkdtempSync(path.join(os.tmpdir(), 'acp-worker-')), 'worker.js');
    buildSync({
      entryPoints: [entry],
      outfile: file,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
    });
    bundles.set(entry, file);
  }
  return file;
}

/**
 * Runs the TypeScript module `entry` (bundled) in a worker thread with `data` (its `workerData`) and
 * resolves with the first message it posts; rejects, and terminates the worker, when none comes within
 * `ms`. The guard for code that may block its thread for ever (a backtracking regex): a mocha timeout
 * cannot interrupt a synchronous loop in the test's own thread, so such a test would hang, not fail.
 */
export function inWorker<T>(entry: string, data: unknown, ms: number): Promise<T> {
  const worker = new Worker(bundled(entry), { workerData: data });
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the worker did not answer within ${ms} ms (its thread is blocked)`));
      void worker.terminate();
    }, ms);
    worker.once('message', (message: T) => {
      clearTimeout(timer);
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
