import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ShadowGitCheckpointStore,
  type ShadowGitStoreOptions,
} from '../../../../src/features/checkpoints/core/shadowGit';
import type { FileChangeStat } from '../../../../src/features/checkpoints/core/types';
import { silentLogger } from '../../../../src/core/ports';

/** Writes files (relative path → content) under `root`, creating folders. */
export function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The changes as `kind rel +added -removed [binary]` lines, relative to `root`, for readable asserts. */
export function summary(changes: readonly FileChangeStat[], root: string): string[] {
  return changes.map((change) => {
    const rel = path.relative(root, change.path).split(path.sep).join('/');
    return `${change.kind} ${rel} +${change.added} -${change.removed}${change.binary ? ' binary' : ''}`;
  });
}

/** Runs the user's git in `cwd` the way a user would, never taking optional locks (so reading changes nothing). */
export function userGit(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_OPTIONAL_LOCKS: '0',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: path.join(cwd, '..', 'home'),
      GIT_AUTHOR_NAME: 'User',
      GIT_AUTHOR_EMAIL: 'user@example.com',
      GIT_COMMITTER_NAME: 'User',
      GIT_COMMITTER_EMAIL: 'user@example.com',
    },
  });
}

/** Every file under `dir` with its bytes' hash, mode and mtime: equal only if nothing was touched. */
export function fingerprint(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (current: string): void => {
    for (const name of readdirSync(current).sort()) {
      const file = path.join(current, name);
      const info = lstatSync(file);
      const rel = path.relative(dir, file);
      if (info.isDirectory()) {
        result[`${rel}/`] = `dir ${info.mode}`;
        walk(file);
      } else {
        const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
        result[rel] = `${hash} ${info.mode} ${info.mtimeMs} ${info.size}`;
      }
    }
  };
  walk(dir);
  return result;
}

/** A temporary root with a `workspace` folder, a `storage` folder and a `home` for the user's git. */
export interface ShadowStoreFixture {
  readonly root: string;
  readonly workspace: string;
  readonly storageDir: string;
  /** Opens a store on the workspace (closed after the test). */
  openStore(options?: Partial<ShadowGitStoreOptions>): Promise<ShadowGitCheckpointStore>;
}

/** Registers the hooks that make a fresh fixture for each test of the calling `describe`. */
export function useShadowStore(): ShadowStoreFixture {
  const stores: ShadowGitCheckpointStore[] = [];
  const current = { root: '', workspace: '', storageDir: '' };
  beforeEach(() => {
    current.root = mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-'));
    current.workspace = path.join(current.root, 'workspace');
    current.storageDir = path.join(current.root, 'storage');
    mkdirSync(current.workspace);
    mkdirSync(path.join(current.root, 'home'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) {
      await store.idle();
      store.dispose();
    }
    rmSync(current.root, { recursive: true, force: true });
  });
  return {
    get root() {
      return current.root;
    },
    get workspace() {
      return current.workspace;
    },
    get storageDir() {
      return current.storageDir;
    },
    async openStore(options = {}) {
      const store = await ShadowGitCheckpointStore.open({
        folders: [current.workspace],
        storageDir: current.storageDir,
        logger: silentLogger,
        ...options,
      });
      stores.push(store);
      return store;
    },
  };
}

/** The git on PATH, as an absolute path (for wrappers that run it after their own step). */
export function realGit(): string {
  return execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
}
