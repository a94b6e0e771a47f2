import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { removeWhenFree, renameWhenFree } from '../../../core/platform/heldFiles';
import * as z from 'zod';

/**
 * A file's recorded content: the name of its blob, `null` when it did not exist, `unknown` when it
 * could not be known (it may have existed: Undo must not delete it).
 */
export type BlobRef = string | null | 'unknown';

/** See `BlobRef`. */
export const UNKNOWN = 'unknown';

/** What one checkpoint recorded: absolute path → content at the checkpoint. */
export type Recorded = Map<string, BlobRef>;

/** A checkpoint of the limited store: when it was taken (ms), and what it recorded. */
export interface LimitedCheckpoint {
  /** Its start: a file changed later (its ctime after this) was not read at it. */
  readonly at: number;
  readonly recorded: Recorded;
}

/** One line of the log. Read back from disk, so parsed, never trusted. */
const LineSchema = z.discriminatedUnion('t', [
  /** `at`: when it was taken (absent in logs written before: read from the id). */
  z.object({ t: z.literal('create'), id: z.string(), at: z.optional(z.number()) }),
  z.object({
    t: z.literal('note'),
    ids: z.array(z.string()),
    path: z.string(),
    blob: z.union([z.string().regex(/^[0-9a-f]{64}$/), z.literal(UNKNOWN)]).nullable(),
  }),
]);
type Line = z.infer<typeof LineSchema>;

const LOG_FILE = 'log.jsonl';
const BLOBS = 'blobs';

/**
 * The limited store's memory on disk, so its checkpoint ids survive a window reload like the git
 * store's: an append-only log of checkpoints and noted files, and the noted contents as blobs named by
 * their SHA-256 (a file noted for many checkpoints is stored once). A torn last line is skipped.
 */
export class LimitedLog {
  private constructor(private readonly dir: string) {}

  /** Opens the log in `dir`, creating it; returns the checkpoints it records, oldest first. */
  static async open(dir: string): Promise<{ log: LimitedLog; checkpoints: Map<string, LimitedCheckpoint> }> {
    await mkdir(path.join(dir, BLOBS), { recursive: true });
    const log = new LimitedLog(dir);
    let text = '';
    try {
      text = await readFile(log.logFile, 'utf8');
    } catch {
      // no log yet
    }
    if (text !== '' && !text.endsWith('\n')) {
      await appendFile(log.logFile, '\n'); // so the next line does not join a torn one
    }
    const checkpoints = new Map<string, LimitedCheckpoint>();
    for (const raw of text.split('\n')) {
      const line = parseLine(raw);
      if (line?.t === 'create') {
        checkpoints.set(line.id, { at: line.at ?? timeOfId(line.id), recorded: new Map() });
      } else if (line?.t === 'note') {
        for (const id of line.ids) {
          checkpoints.get(id)?.recorded.set(line.path, line.blob);
        }
      }
    }
    return { log, checkpoints };
  }

  async appendCreate(id: string, at: number): Promise<void> {
    await this.append({ t: 'create', id, at });
  }

  /** Stores `bytes` (unless stored already) and records it as `file`'s content at checkpoints `ids`. */
  async appendNote(
    ids: readonly string[],
    file: string,
    bytes: Uint8Array | null | typeof UNKNOWN,
  ): Promise<BlobRef> {
    const blob = bytes === null || bytes === UNKNOWN ? bytes : await this.writeBlob(bytes);
    await this.append({ t: 'note', ids: [...ids], path: file, blob });
    return blob;
  }

  async readBlob(blob: string): Promise<Uint8Array> {
    return new Uint8Array(await readFile(path.join(this.dir, BLOBS, blob)));
  }

  /** Rewrites the log with only `checkpoints` and deletes the blobs nothing refers to any more. */
  async compact(checkpoints: ReadonlyMap<string, LimitedCheckpoint>): Promise<void> {
    const lines: Line[] = [];
    const used = new Set<string>();
    for (const [id, { at, recorded }] of checkpoints) {
      lines.push({ t: 'create', id, at });
      for (const [file, blob] of recorded) {
        lines.push({ t: 'note', ids: [id], path: file, blob });
        if (blob !== null && blob !== UNKNOWN) {
          used.add(blob);
        }
      }
    }
    const temporary = `${this.logFile}.tmp`;
    await writeFile(temporary, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    await renameWhenFree(temporary, this.logFile);
    for (const blob of await readdir(path.join(this.dir, BLOBS))) {
      if (!used.has(blob)) {
        await removeWhenFree(path.join(this.dir, BLOBS, blob));
      }
    }
  }

  private get logFile(): string {
    return path.join(this.dir, LOG_FILE);
  }

  private async append(line: Line): Promise<void> {
    await appendFile(this.logFile, `${JSON.stringify(line)}\n`);
  }

  private async writeBlob(bytes: Uint8Array): Promise<string> {
    const blob = createHash('sha256').update(bytes).digest('hex');
    const file = path.join(this.dir, BLOBS, blob);
    try {
      await stat(file);
    } catch {
      // Written aside and renamed: a blob is whole or absent, never torn.
      const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temporary, bytes);
      await renameWhenFree(temporary, file);
    }
    return blob;
  }
}

/**
 * When a checkpoint of a log written before `at` was recorded was taken: its id starts with the time in
 * base 36 (`note1:<time>-<random>`); 0 when it does not (then every file counts as changed since).
 */
function timeOfId(id: string): number {
  const time = parseInt(/^note1:([0-9a-z]+)-/.exec(id)?.[1] ?? '', 36);
  return Number.isFinite(time) ? time : 0;
}

function parseLine(raw: string): Line | undefined {
  if (raw.trim() === '') {
    return undefined;
  }
  try {
    const parsed = LineSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
