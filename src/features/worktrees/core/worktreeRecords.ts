import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as z from 'zod/mini';

const CHAT_ID = /^[A-Za-z0-9_-]+$/;
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

const RecordSchema = z.object({
  chatId: z.string().check(z.regex(CHAT_ID)),
  /** The work tree the worktree was made from: where Apply brings its work. */
  repositoryRoot: z.string().check(z.minLength(1)),
  /** GIT_DIR of that work tree. */
  repositoryGitDir: z.string().check(z.minLength(1)),
  /** The repository's shared git folder. */
  commonDir: z.string().check(z.minLength(1)),
  /** The worktree's folder: the chat's agent works here. */
  folder: z.string().check(z.minLength(1)),
  /** The worktree's own git folder (`<commonDir>/worktrees/<name>`). */
  gitDir: z.string().check(z.minLength(1)),
  /** Its branch, `acp/<name>`. */
  branch: z.string().check(z.minLength(1), z.maxLength(200)),
  /** The commit it was made from. */
  baseCommit: z.string().check(z.regex(COMMIT)),
  createdAt: z.number(),
  /** The worktree's tree when its work was last applied (nothing since: nothing unapplied). */
  appliedTree: z.optional(z.string().check(z.regex(COMMIT))),
  /** The chats asked one prompt together ("Ask several agents…") share this. */
  group: z.optional(z.string().check(z.regex(CHAT_ID))),
  /** The worktree was removed: the chat stays, and can no longer send. */
  discarded: z.optional(z.literal(true)),
});

export type WorktreeRecord = z.infer<typeof RecordSchema>;

/**
 * Which chat works in which worktree, one small JSON file per chat in the extension's workspace storage
 * (beside the chats' journals): written before the chat uses the worktree, read back after a reload or a
 * crash, parsed as untrusted input. A file that does not parse is skipped (its worktree then shows up as
 * a leftover, offered for cleanup).
 */
export class WorktreeRecords {
  private readonly folder: string;

  constructor(storageDir: string) {
    this.folder = path.join(storageDir, 'worktrees');
  }

  async all(): Promise<WorktreeRecord[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const records = await Promise.all(
      names.filter((name) => name.endsWith('.json')).map((name) => this.read(name)),
    );
    return records.filter((record): record is WorktreeRecord => record !== undefined);
  }

  /** Writes `record` whole (a temporary file renamed over the old one: never half written). */
  async save(record: WorktreeRecord): Promise<void> {
    const file = this.file(record.chatId);
    await mkdir(this.folder, { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(RecordSchema.parse(record)), 'utf8');
    await rename(temporary, file);
  }

  async delete(chatId: string): Promise<void> {
    await rm(this.file(chatId), { force: true });
  }

  private async read(name: string): Promise<WorktreeRecord | undefined> {
    try {
      const parsed = RecordSchema.safeParse(JSON.parse(await readFile(path.join(this.folder, name), 'utf8')));
      return parsed.success && `${parsed.data.chatId}.json` === name ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private file(chatId: string): string {
    if (!CHAT_ID.test(chatId)) {
      throw new Error(`Invalid chat id ${chatId}`);
    }
    return path.join(this.folder, `${chatId}.json`);
  }
}
