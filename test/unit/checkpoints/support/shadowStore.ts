import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
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
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
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
    for (const name of fs.readdirSync(current).sort()) {
      const file = path.join(current, name);
      const info = fs.lstatSync(file);
      const rel = path.relative(dir, file);
      if (info.isDirectory()) {
        result[`${rel}/`] = `dir ${info.mode}`;
        walk(file);
      } else {
        const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
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
  /** Opens a store (`openStore`) and takes a checkpoint of the workspace as it is now. */
  checkpointed(
    options?: Partial<ShadowGitStoreOptions>,
  ): Promise<{ store: ShadowGitCheckpointStore; checkpoint: string }>;
}

/** Registers the hooks that make a fresh fixture for each test of the calling `describe`. */
export function useShadowStore(): ShadowStoreFixture {
  const stores: ShadowGitCheckpointStore[] = [];
  const current = { root: '', workspace: '', storageDir: '' };
  beforeEach(() => {
    current.root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-checkpoints-'));
    current.workspace = path.join(current.root, 'workspace');
    current.storageDir = path.join(current.root, 'storage');
    fs.mkdirSync(current.workspace);
    fs.mkdirSync(path.join(current.root, 'home'));
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) {
      await store.idle();
      store.dispose();
    }
    fs.rmSync(current.root, { recursive: true, force: true });
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
    async checkpointed(options = {}) {
      const store = await this.openStore(options);
      return { store, checkpoint: await store.create() };
    },
  };
}

/** The git on PATH, as an absolute path (for wrappers that run it after their own step). */
export function realGit(): string {
  return execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
}

/**
 * A git for the store that logs each command line to `log` (under `root`), running `before` (shell, with
 * the arguments as `$*`) first: to see which commands a checkpoint ran, or to act at one of them. `first`
 * runs before the line is logged (a trap that must be in place before anything can be seen).
 */
export function loggingGit(
  root: string,
  before = '',
  first = '',
): { readonly git: string; readonly log: string } {
  const log = path.join(root, 'git.log');
  const git = path.join(root, 'git-logging');
  fs.writeFileSync(
    git,
    `#!/bin/sh\n${first}\nprintf '%s\\n' "$*" >> '${log}'\n${before}\n'${realGit()}' "$@"\n`,
  );
  fs.chmodSync(git, 0o755);
  return { git, log };
}
