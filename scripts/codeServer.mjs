/**
 * Starts and stops code-server (a real VS Code workbench + Node extension host) on 127.0.0.1 for tests and
 * for `npm start`. Each server gets fresh, temporary user-data and extensions folders (unless the caller
 * passes its own), quiet settings, and is stopped by the process group it was started as — never by name.
 *
 *   const server = await startCodeServer({ workspace });
 *   … open server.url in a browser …
 *   await server.stop();
 *
 * Servers still running when this process exits (an uncaught error, Ctrl+C, SIGTERM) are killed too.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureCodeServer } from './tools.mjs';

/** Settings that keep the workbench quiet and offline: no welcome page, AI chat, git or update checks. */
export const QUIET_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  // Port forwarding's detection by process: every few seconds the extension host lists every process's
  // open files and runs ps (≈ 100 ms of CPU each time), landing in whatever a test or bench times.
  'remote.autoForwardPorts': false,
  'remote.autoForwardPortsSource': 'output',
  'security.workspace.trust.enabled': false,
  // Tests edit buffers and expect them dirty until the extension saves them.
  'files.autoSave': 'off',
  // Tests script every dialog; a chat's status is announced only where a test asks for it.
  'acpAgents.notifications.chatStatus': 'never',
};

const HEALTH_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 5_000;
/** Lines of server output kept for the error message when start-up fails. */
const KEPT_OUTPUT_LINES = 80;

/** Servers started by this process and not yet stopped: killed on exit. */
const live = new Set();

/**
 * @typedef {object} CodeServerOptions
 * @property {string} workspace              Folder the server opens by default.
 * @property {string} [extensionsDir]        Kept after stop; default: a fresh temporary folder.
 * @property {string} [userDataDir]          Kept after stop; default: a fresh temporary folder.
 * @property {Record<string, unknown>} [settings]  Merged over QUIET_SETTINGS into User/settings.json.
 * @property {string[]} [extraArgs]          More code-server arguments.
 * @property {NodeJS.ProcessEnv} [env]       Added to the server's environment (the extension host inherits it).
 * @property {number} [port]                 Default: a free port.
 * @property {boolean} [isolateXdg]          Point XDG_CONFIG_HOME/_DATA_HOME/_CACHE_HOME at a temporary folder so
 *                                           code-server writes nothing under $HOME (default true). The extension host — and
 *                                           the agents it starts — inherit them, so `npm start` turns it off.
 * @property {boolean} [workspaceTrust]    Workspace trust on (default off): a folder not trusted yet opens in
 *                                           Restricted Mode, as for a user who did not trust it.
 * @property {(line: string) => void} [onOutput]  Receives every line the server prints.
 *
 * @typedef {object} CodeServer
 * @property {string} url        e.g. http://127.0.0.1:41234
 * @property {number} port
 * @property {number} pid        Process (and process group) id of the server.
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {Promise<string>} exited  Settles when the server process ends, with how (signal or exit code).
 * @property {() => Promise<void>} stop  Kills the server's process group and removes its temporary folders.
 */

/**
 * Starts code-server and resolves once `/healthz` answers.
 * @param {CodeServerOptions} options
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(options) {
  const tools = await ensureCodeServer({ quiet: true });
  const tempRoot = mkdtempSync(join(tmpdir(), 'acp-code-server-'));
  const userDataDir = options.userDataDir ?? join(tempRoot, 'user-data');
  const extensionsDir = options.extensionsDir ?? join(tempRoot, 'extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeSettings(join(userDataDir, 'User', 'settings.json'), {
    ...(options.workspaceTrust
      ? {
          'security.workspace.trust.enabled': true,
          // Restricted Mode without the start-up dialog: the folder stays untrusted until a test trusts it.
          'security.workspace.trust.startupPrompt': 'never',
        }
      : {}),
    ...options.settings,
  });

  const port = options.port ?? (await freePort());
  const args = [
    tools.entry,
    // Without it code-server creates ~/.config/code-server/config.yaml with a random password.
    '--config',
    '/dev/null',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    // Lets the workbench accept the `payload` URL parameter (development extension, tests path).
    '--vscode-option',
    'enable-smoke-test-driver',
    '--extensions-dir',
    extensionsDir,
    '--user-data-dir',
    userDataDir,
    ...(options.extraArgs ?? []),
    resolve(options.workspace),
  ];
  const xdg =
    options.isolateXdg === false
      ? {}
      : { XDG_CONFIG_HOME: tempRoot, XDG_DATA_HOME: tempRoot, XDG_CACHE_HOME: tempRoot };
  const child = spawn(tools.node, args, {
    // Its own process group, so stop() reaches the extension host and every other child it forks.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inheritedEnv(), ...xdg, ...options.env },
  });

  const output = /** @type {string[]} */ ([]);
  const onLine = (/** @type {string} */ line) => {
    output.push(line);
    if (output.length > KEPT_OUTPUT_LINES) {
      output.shift();
    }
    options.onOutput?.(line);
  };
  forwardLines(child.stdout, onLine);
  forwardLines(child.stderr, onLine);

  const entry = { pid: /** @type {number} */ (child.pid), tempRoot };
  /** @type {Promise<string>} */
  const exited = new Promise((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit(signal ?? `exit code ${code}`));
    child.once('error', (error) => resolveExit(error.message));
  });
  live.add(entry);
  installExitHooks();

  let stopped = false;
  const stop = async () => {
    if (stopped) {
      return;
    }
    stopped = true;
    await killGroup(entry, exited);
    live.delete(entry);
    rmSync(tempRoot, { recursive: true, force: true });
  };

  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([
      waitForHealth(url, HEALTH_TIMEOUT_MS),
      exited.then((how) => {
        throw new Error(`code-server exited during start-up (${how})`);
      }),
    ]);
  } catch (error) {
    await stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}\n--- code-server output ---\n${output.join('\n')}`);
  }
  return { url, port, pid: entry.pid, userDataDir, extensionsDir, exited, stop };
}

/**
 * Variables code-server reads that must not leak in from the caller's shell: $PORT overrides --bind-addr;
 * inside a VS Code or code-server terminal, VSCODE_IPC_HOOK_CLI / CODE_SERVER_* make it hand the folder to
 * that instance instead of starting a server; PASSWORD would turn authentication back on.
 */
const SCRUBBED_ENV = [
  'PORT',
  'VSCODE_IPC_HOOK_CLI',
  'CODE_SERVER_PARENT_PID',
  'CODE_SERVER_SESSION_SOCKET',
  'PASSWORD',
  'HASHED_PASSWORD',
];

function inheritedEnv() {
  const env = { ...process.env };
  for (const name of SCRUBBED_ENV) {
    delete env[name];
  }
  return env;
}

/**
 * Seeds settings.json: quiet defaults, then what a kept user-data folder already has (the user's own
 * changes survive `npm start` restarts), then the caller's settings. A file that is not plain JSON (VS Code
 * allows comments) is left alone.
 */
function writeSettings(
  /** @type {string} */ file,
  /** @type {Record<string, unknown> | undefined} */ settings,
) {
  let existing = {};
  if (existsSync(file)) {
    try {
      existing = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
  }
  writeFileSync(file, `${JSON.stringify({ ...QUIET_SETTINGS, ...existing, ...settings }, null, 2)}\n`);
}

/** A port that was free on 127.0.0.1 a moment ago (code-server has no "pick any port" option). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
export function isPortFree(/** @type {number} */ port) {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

function forwardLines(
  /** @type {import('node:stream').Readable} */ stream,
  /** @type {(line: string) => void} */ onLine,
) {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (/** @type {string} */ chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  stream.on('end', () => pending && onLine(pending));
}

async function waitForHealth(/** @type {string} */ url, /** @type {number} */ timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await healthy(url)) {
      return;
    }
    await sleep(250);
  }
  throw new Error(`code-server did not answer ${url}/healthz within ${timeoutMs / 1000} s`);
}

function healthy(/** @type {string} */ url) {
  return new Promise((resolveHealthy) => {
    const req = request(`${url}/healthz`, { timeout: 2_000 }, (res) => {
      res.resume();
      resolveHealthy(res.statusCode === 200);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolveHealthy(false));
    req.end();
  });
}

/** SIGTERM to the whole group, SIGKILL after a grace period. */
async function killGroup(/** @type {{ pid: number }} */ entry, /** @type {Promise<unknown>} */ exited) {
  if (!signalGroup(entry.pid, 'SIGTERM')) {
    return;
  }
  // An unref'd timer: it must not keep this process alive once the server has gone.
  const graceful = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS, false, { ref: false })]);
  // The leader may be gone while forked children (extension host, pty host) linger: always finish the group.
  if (!graceful || groupAlive(entry.pid)) {
    await sleep(graceful ? 200 : 0);
    signalGroup(entry.pid, 'SIGKILL');
  }
}

function signalGroup(/** @type {number} */ pid, /** @type {NodeJS.Signals | 0} */ signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone.
  }
}

function groupAlive(/** @type {number} */ pid) {
  return signalGroup(pid, 0);
}

let hooksInstalled = false;

/**
 * Last-resort cleanup. The server runs in its own process group, so Ctrl+C in a terminal does not reach it:
 * without these hooks an interrupted test run would leave it (and its extension host) running.
 */
function installExitHooks() {
  if (hooksInstalled) {
    return;
  }
  hooksInstalled = true;
  process.once('exit', killAllNow);
  for (const [signal, code] of /** @type {const} */ ([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ])) {
    process.on(signal, () => {
      if (live.size > 0) {
        console.error(`\n[code-server] ${signal}: stopping ${live.size} server(s)`);
      }
      killAllNow();
      process.exit(code);
    });
  }
}

/** Synchronous (usable in an 'exit' handler): SIGTERM every live group, wait briefly, SIGKILL the rest. */
function killAllNow() {
  const entries = [...live];
  live.clear();
  for (const entry of entries) {
    signalGroup(entry.pid, 'SIGTERM');
  }
  const deadline = Date.now() + 2_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (entries.some((entry) => groupAlive(entry.pid)) && Date.now() < deadline) {
    Atomics.wait(pause, 0, 0, 50);
  }
  for (const entry of entries) {
    signalGroup(entry.pid, 'SIGKILL');
    rmSync(entry.tempRoot, { recursive: true, force: true });
  }
}
