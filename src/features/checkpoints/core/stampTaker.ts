import { Worker } from 'node:worker_threads';
import type { Logger } from '../../../core/ports';

/**
 * Numbers in one stamp: the entry's `lstat` (dev, inode, mode, links, size, mtime and ctime in ns), then,
 * for a symbolic link, the same seven of what it names (all -1 when that is gone). All 0 when the entry
 * is gone or cannot be stat'ed: no entry that exists has mode 0.
 */
export const STAMP_NUMBERS = 14;
/** Where the mode (0: gone), the ctime of the entry and that of a link's target sit in a stamp. */
export const MODE_AT = 2;
export const CTIME_AT = 6;
export const TARGET_CTIME_AT = 13;

/** A worker that does not answer this soon is taken for stuck (a hung mount): the look is a full one. */
const ANSWER_TIMEOUT_MS = 30_000;
/**
 * A worker holds ~12 MiB; one not asked for this long ends (the next look starts one again: ~70 ms of
 * CPU, about what it saves on one look at 200,000 files).
 */
const IDLE_MS = 5 * 60_000;

/**
 * The worker's code (CommonJS, run as `eval`): for each path of a request (NUL-separated), its stamp as
 * above, in one transferred array. Synchronous `lstat`s: ~3.5 µs each against ~15 µs through the
 * promise API and libuv's pool, and on a thread of its own, so a stat that hangs (a dead network or FUSE
 * mount planted in the workspace) blocks neither the extension host nor the pool its other work needs.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { lstatSync, statSync } = require('node:fs');
const FIELDS = ['dev', 'ino', 'mode', 'nlink', 'size', 'mtimeNs', 'ctimeNs'];
parentPort.on('message', ({ id, paths }) => {
  const list = paths === '' ? [] : paths.split('\\0');
  const stamps = new BigInt64Array(list.length * ${STAMP_NUMBERS});
  for (let index = 0; index < list.length; index++) {
    const at = index * ${STAMP_NUMBERS};
    let info;
    try {
      info = lstatSync(list[index], { bigint: true });
    } catch {
      continue;
    }
    for (let field = 0; field < 7; field++) stamps[at + field] = info[FIELDS[field]];
    if (!info.isSymbolicLink()) continue;
    let target;
    try {
      target = statSync(list[index], { bigint: true });
    } catch {
      stamps.fill(-1n, at + 7, at + 14);
      continue;
    }
    for (let field = 0; field < 7; field++) stamps[at + 7 + field] = target[FIELDS[field]];
  }
  parentPort.postMessage({ id, stamps }, [stamps.buffer]);
});
`;

/** Starts the wait for one answer: `expire` runs if it is not cancelled in time (tests expire it at will). */
export type AnswerTimer = (expire: () => void) => { cancel(): void };

const answerTimer: AnswerTimer = (expire) => {
  const timer = setTimeout(expire, ANSWER_TIMEOUT_MS);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

interface Answer {
  readonly id: number;
  readonly stamps: BigInt64Array;
}

/**
 * Takes stamps (see `STAMP_NUMBERS`) on a worker thread kept while stamps are asked for (unreferenced
 * while idle, so it never keeps the process alive; ended after `IDLE_MS` unused). A worker that fails or
 * does not answer in time is dropped — the stamps asked for reject — and the next request starts one.
 */
export class StampTaker {
  private worker: Worker | undefined;
  private disposed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (stamps: BigInt64Array) => void; reject: (error: Error) => void }
  >();

  constructor(
    private readonly logger: Logger,
    private readonly startAnswerTimer: AnswerTimer = answerTimer,
  ) {}

  /** The stamps of `absolutePaths`, `STAMP_NUMBERS` numbers each, in order. */
  take(absolutePaths: readonly string[]): Promise<BigInt64Array> {
    if (this.disposed) {
      return Promise.reject(new Error('The checkpoint store was closed.'));
    }
    if (absolutePaths.some((absolute) => absolute.includes('\0'))) {
      return Promise.reject(new Error('A path with a NUL byte cannot be stamped.'));
    }
    const worker = this.started();
    clearTimeout(this.idleTimer);
    const id = ++this.nextId;
    return new Promise<BigInt64Array>((resolve, reject) => {
      const timer = this.startAnswerTimer(() => {
        this.fail(worker, new Error('The folder stamps took too long (a mount that does not answer?).'));
      });
      this.pending.set(id, {
        resolve: (stamps) => {
          timer.cancel();
          resolve(stamps);
        },
        reject: (error) => {
          timer.cancel();
          reject(error);
        },
      });
      worker.ref();
      worker.postMessage({ id, paths: absolutePaths.join('\0') });
    });
  }

  /** Ends the worker; stamps still asked for, and asked for later, reject (a full look follows). */
  dispose(): void {
    this.disposed = true;
    if (this.worker !== undefined) {
      this.drop(this.worker, new Error('The checkpoint store was closed.'));
    }
  }

  private started(): Worker {
    if (this.worker !== undefined) {
      return this.worker;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (this.pending.size === 0) {
        worker.unref();
        this.idleTimer = setTimeout(() => this.drop(worker, new Error('unused')), IDLE_MS);
        this.idleTimer.unref();
      }
      waiting?.resolve(answer.stamps);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', () => this.fail(worker, new Error('The folder stamps worker ended.')));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** `drop`, said in the log: checkpoints then look at the whole folder each time, which is slower. */
  private fail(worker: Worker, why: Error): void {
    if (this.worker === worker) {
      this.logger.warn(`Checkpoints: ${why.message} The next checkpoint looks at the whole folder.`);
    }
    this.drop(worker, why);
  }

  /** Forgets `worker` (stopping it, if it still runs) and fails what it was asked. */
  private drop(worker: Worker, why: Error): void {
    if (this.worker !== worker) {
      return;
    }
    this.worker = undefined;
    clearTimeout(this.idleTimer);
    void worker.terminate().catch(() => undefined);
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) {
      reject(why);
    }
  }
}
