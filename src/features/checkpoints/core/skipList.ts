import { lstat, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod';
import { buildExcludeFile, readUserExclude } from './excludeFile';
import { fileLooksBinary } from './fileContent';

/** Why a file is left out of checkpoints; remembered so a no-change checkpoint needs no re-reading. */
const SkippedFileSchema = z.object({
  /** `rules`: a folder whose `.gitignore` / `.gitattributes` git must not open (see ./ruleFiles). */
  reason: z.enum(['large', 'binary', 'repository', 'symlink', 'rules']),
  size: z.number(),
});
export type SkippedFile = z.infer<typeof SkippedFileSchema>;
/** The skip list as saved in the shadow repository; read back from disk, so parsed. */
const SkippedListSchema = z.record(z.string(), SkippedFileSchema);

const SKIPPED_FILE = 'acp-skipped.json';
/** Files stat'ed at once: a first snapshot lists every file, one at a time would take seconds. */
const STAT_BATCH = 64;

export interface SkipBounds {
  /** Files above this are left out. */
  readonly maxFileBytes: number;
  /** Binary files above this are left out. */
  readonly maxBinaryBytes: number;
}

/**
 * The files of a folder that checkpoints leave out, kept in the shadow repository's `info/exclude` so
 * git does not list them again: nested repositories, symbolic links, files above the size bound, large
 * binaries. Each snapshot re-checks them with one `lstat` each and takes back those that are gone or
 * within the bounds again.
 */
export class SkipList {
  private skipped = new Map<string, SkippedFile>();
  private writtenExclude = '';
  /** Changes whenever the list does, so a derived value (a blob of it) can be cached. */
  private revision = 0;

  constructor(
    private readonly folder: string,
    private readonly gitDir: string,
    private readonly bounds: SkipBounds,
  ) {}

  get size(): number {
    return this.skipped.size;
  }

  get version(): number {
    return this.revision;
  }

  /** `/`-separated paths from the folder root; a nested repository ends with `/`. */
  paths(): string[] {
    return [...this.skipped.keys()].sort();
  }

  async load(): Promise<void> {
    try {
      const text = await readFile(path.join(this.gitDir, SKIPPED_FILE), 'utf8');
      const parsed = SkippedListSchema.safeParse(JSON.parse(text));
      this.skipped = new Map(parsed.success ? Object.entries(parsed.data) : []);
    } catch {
      this.skipped = new Map(); // none yet, or unreadable: files are looked at again
    }
    this.revision++;
  }

  /** Why each listed path (from `git ls-files`) is to be left out, `undefined` for the ones to keep. */
  reasonsFor(rels: readonly string[]): Promise<(SkippedFile | undefined)[]> {
    return mapInBatches(rels, STAT_BATCH, (rel) => this.reasonFor(rel));
  }

  /** Remembers untracked files to leave out from now on. */
  async add(entries: ReadonlyMap<string, SkippedFile>): Promise<void> {
    if (entries.size === 0) {
      return;
    }
    for (const [rel, skipped] of entries) {
      this.skipped.set(rel, skipped);
    }
    await this.save();
  }

  /**
   * The folders left out because their rule files cannot be read (`/`-separated, ending in `/`): found
   * afresh by every snapshot, so they replace the previous ones.
   */
  async setRuleFolders(dirs: readonly string[]): Promise<void> {
    const before = [...this.skipped].filter(([, skipped]) => skipped.reason === 'rules').map(([rel]) => rel);
    if (before.length === dirs.length && dirs.every((dir) => this.skipped.get(dir)?.reason === 'rules')) {
      return;
    }
    for (const rel of before) {
      this.skipped.delete(rel);
    }
    for (const dir of dirs) {
      this.skipped.set(dir, { reason: 'rules', size: 0 });
    }
    await this.save();
  }

  /** The symbolic links left out (`/`-separated). */
  links(): string[] {
    return this.paths().filter((rel) => this.skipped.get(rel)?.reason === 'symlink');
  }

  /** The folders left out for their rule files. */
  ruleFolders(): string[] {
    return this.paths().filter((rel) => this.skipped.get(rel)?.reason === 'rules');
  }

  /** Whether `dir` (ending in `/`) is a nested repository this list leaves out. */
  isRepository(dir: string): boolean {
    return this.skipped.get(dir)?.reason === 'repository';
  }

  /** Drops skipped files that are gone or back within the bounds, so the next snapshot takes them. */
  async refresh(): Promise<void> {
    let changed = false;
    const entries = [...this.skipped];
    const now = await mapInBatches(entries, STAT_BATCH, ([rel, skipped]) => this.stillSkipped(rel, skipped));
    for (const [index, [rel, skipped]] of entries.entries()) {
      const still = now[index];
      if (still === undefined) {
        this.skipped.delete(rel);
        changed = true;
      } else if (still !== skipped) {
        this.skipped.set(rel, still);
        changed = true;
      }
    }
    if (changed) {
      await this.save();
    }
  }

  /** The shadow's `info/exclude` as it should be now: the user's own excludes and this list. */
  async excludeText(): Promise<string> {
    return buildExcludeFile(await readUserExclude(this.folder), this.skipped.keys());
  }

  /** Writes the shadow's `info/exclude` when it changed; returns its text. */
  async writeExcludeFile(): Promise<string> {
    const text = await this.excludeText();
    if (text !== this.writtenExclude) {
      await writeFile(path.join(this.gitDir, 'info', 'exclude'), text);
      this.writtenExclude = text;
    }
    return text;
  }

  /**
   * Whether a listed path is left out: a nested repository, a symbolic link (restoring its target's text
   * as a file would be wrong), a file above the size bound, a large binary.
   */
  private async reasonFor(rel: string): Promise<SkippedFile | undefined> {
    if (rel.endsWith('/')) {
      // `ls-files -o` names a nested git repository as a directory: git would store it as a gitlink
      // (a commit we do not have), and fails on one with no commit yet.
      return { reason: 'repository', size: 0 };
    }
    const absolute = path.join(this.folder, rel);
    let info;
    try {
      info = await lstat(absolute);
    } catch {
      return undefined; // deleted: staged as a deletion
    }
    if (info.isSymbolicLink()) {
      return { reason: 'symlink', size: 0 };
    }
    if (!info.isFile() || info.size <= this.bounds.maxBinaryBytes) {
      return undefined;
    }
    if (info.size > this.bounds.maxFileBytes) {
      return { reason: 'large', size: info.size };
    }
    try {
      return (await fileLooksBinary(absolute)) ? { reason: 'binary', size: info.size } : undefined;
    } catch {
      return undefined;
    }
  }

  private async stillSkipped(rel: string, skipped: SkippedFile): Promise<SkippedFile | undefined> {
    const absolute = path.join(this.folder, rel);
    try {
      const info = await lstat(absolute);
      if (skipped.reason === 'repository') {
        return info.isDirectory() && (await exists(path.join(absolute, '.git'))) ? skipped : undefined;
      }
      if (skipped.reason === 'rules') {
        return skipped; // re-checked by every snapshot's walk
      }
      if (skipped.reason === 'symlink') {
        return info.isSymbolicLink() ? skipped : undefined;
      }
      if (info.isFile() && info.size === skipped.size) {
        return skipped;
      }
      return await this.reasonFor(rel);
    } catch {
      return undefined;
    }
  }

  private async save(): Promise<void> {
    this.revision++;
    await writeFile(path.join(this.gitDir, SKIPPED_FILE), JSON.stringify(Object.fromEntries(this.skipped)));
  }
}

/** Whether `rel` is in `skipped`: listed itself, or inside a listed directory (a nested repository). */
export function isSkipped(rel: string, skipped: ReadonlySet<string>): boolean {
  if (skipped.has(rel)) {
    return true;
  }
  for (let slash = rel.indexOf('/'); slash !== -1; slash = rel.indexOf('/', slash + 1)) {
    if (skipped.has(rel.slice(0, slash + 1))) {
      return true;
    }
  }
  return false;
}

/** `work` over `items`, at most `batch` at a time, results in order. */
async function mapInBatches<T, R>(
  items: readonly T[],
  batch: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += batch) {
    results.push(...(await Promise.all(items.slice(start, start + batch).map(work))));
  }
  return results;
}

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
