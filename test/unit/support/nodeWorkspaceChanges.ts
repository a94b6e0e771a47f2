import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type {
  RestoredFile,
  RestoreFailure,
  WorkspaceChangesPort,
} from '../../../src/features/checkpoints/chat/workspaceChanges';
import { writeErrorInWords } from '../../../src/features/checkpoints/chat/putBack';
import type { Disposable } from '../../../src/core/util/disposable';
import type { TurnFileChange } from '../../../src/core/thread/threadTypes';

/**
 * The change review's editor port on the plain file system, for unit tests (the VS Code one is tested in
 * the real VS Code): restores write the disk as VS Code's file service does — following links, so
 * only the change review's own checks keep them inside —, confirmations are answered by `answer` and recorded, and
 * the "watcher" ticks while something listens, as file events would during a turn.
 */
export class NodeWorkspaceChanges implements WorkspaceChangesPort {
  readonly confirmations: { message: string; detail: string }[] = [];
  readonly informed: string[] = [];
  readonly diffs: string[] = [];
  /** The answer to the next confirmations. */
  answer = true;

  /** Files an "editor" holds unsaved text of (there is no editor here: the test says which). */
  readonly dirty = new Set<string>();

  constructor(private readonly folder: string) {}

  unsaved(file: string): boolean {
    return this.dirty.has(file);
  }

  relativePath(file: string): string {
    return path.relative(this.folder, file).split(path.sep).join('/');
  }

  async current(file: string): Promise<Uint8Array | undefined> {
    try {
      return readFileSync(file);
    } catch {
      return undefined; // missing, or not a file (as VS Code's port answers)
    }
  }

  folderOf(file: string): string | undefined {
    const rel = path.relative(this.folder, file);
    return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : this.folder;
  }

  async restore(files: readonly RestoredFile[]): Promise<RestoreFailure[]> {
    const failures: RestoreFailure[] = [];
    for (const file of files) {
      try {
        if (file.replace) {
          unlinkSync(file.path);
        }
        if (file.bytes === undefined) {
          rmSync(file.path, { force: true });
        } else {
          mkdirSync(path.dirname(file.path), { recursive: true });
          writeFileSync(file.path, file.bytes);
        }
      } catch (error) {
        failures.push({ path: file.path, reason: writeErrorInWords(error) });
      }
    }
    return failures;
  }

  async openDiff(checkpointId: string, file: TurnFileChange): Promise<void> {
    this.diffs.push(`${checkpointId}:${this.relativePath(file.path)}`);
  }

  async openChanges(checkpointId: string, files: readonly TurnFileChange[]): Promise<void> {
    this.diffs.push(`${checkpointId}:${files.map((file) => this.relativePath(file.path)).join(',')}`);
  }

  async confirm(message: string, detail: string): Promise<boolean> {
    this.confirmations.push({ message, detail });
    return this.answer;
  }

  watch(onChange: (file: string) => void): Disposable {
    const timer = setInterval(() => onChange(this.folder), 50);
    return { dispose: () => clearInterval(timer) };
  }

  inform(message: string): void {
    this.informed.push(message);
  }
}
