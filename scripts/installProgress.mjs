/**
 * Progress of an `npm install` that would otherwise print nothing for minutes (code-server's downloads and
 * the native modules it compiles): every few seconds one line — how much is on disk against what a finished
 * install takes here, what it is doing (downloading and unpacking, or compiling which native modules), and
 * how long it has run. Linux only, like the install it watches (it reads /proc).
 *
 *   const progress = watchInstall({ dir, label: 'code-server', expectedMb: 620, say });
 *   try { await npmInstall(dir); } finally { progress.stop(); }
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';

/** Programs whose running means a native module is being built (node-gyp, its make and compilers). */
const BUILDERS = /(^|\/)(node-gyp|make|g\+\+|gcc|cc1plus|cc1|c\+\+|ld|prebuild-install|node-pre-gyp)(\0|$)/;

/**
 * @typedef {object} InstallProgressLine
 * @property {string} label        What is installed ("code-server").
 * @property {number} mb           Megabytes on disk so far.
 * @property {number} expectedMb   Megabytes a finished install takes (measured here; an estimate elsewhere).
 * @property {string[]} building   Native modules being compiled now.
 * @property {number} built        Native modules seen compiling so far, these included.
 * @property {number} expectedBuilds  Native modules a finished install compiles (measured here).
 * @property {number} elapsedMs
 */

/**
 * One progress line. While it downloads, how much is on disk against a finished install:
 * `code-server: 212 of ~617 MB (34 %) · downloading and unpacking · 40 s`; once it compiles (the disk hardly
 * grows then, for minutes), which native module of how many: `code-server: compiling @vscode/spdlog
 * (native module 3 of ~8) · 2 min 10 s`.
 */
export function formatInstallProgress(/** @type {InstallProgressLine} */ line) {
  const time = formatDuration(line.elapsedMs);
  if (line.building.length > 0) {
    const names = `${line.building.slice(0, 3).join(', ')}${line.building.length > 3 ? ` and ${line.building.length - 3} more` : ''}`;
    const of = Math.max(line.expectedBuilds, line.built);
    return `${line.label}: compiling ${names} (native module ${line.built} of ~${of}) · ${time}`;
  }
  // Capped below 100 %: the estimate may be short, and the install is not done until npm says so.
  const percent = Math.min(99, Math.floor((line.mb / line.expectedMb) * 100));
  return `${line.label}: ${line.mb} of ~${line.expectedMb} MB (${percent} %) · downloading and unpacking · ${time}`;
}

/** `45 s`, `3 min 05 s`. */
export function formatDuration(/** @type {number} */ ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

/**
 * The package a build runs for, from its working folder: the part after the last `node_modules/`
 * (`…/node_modules/@vscode/spdlog/build` → `@vscode/spdlog`).
 */
export function packageOfFolder(/** @type {string} */ folder) {
  const at = folder.lastIndexOf('/node_modules/');
  if (at < 0) {
    return undefined;
  }
  const [first, second] = folder.slice(at + '/node_modules/'.length).split('/');
  return first?.startsWith('@') && second ? `${first}/${second}` : first || undefined;
}

/**
 * Prints a progress line with `say` every `everyMs` while an install into `dir` runs; `stop()` ends it.
 * @param {{ dir: string, label: string, expectedMb: number, expectedBuilds?: number, say: (line: string) => void, everyMs?: number }} options
 */
export function watchInstall({ dir, label, expectedMb, expectedBuilds = 0, say, everyMs = 10_000 }) {
  const started = performance.now();
  /** Every native module seen compiling, for "3 of ~8". */
  const seen = new Set();
  let busy = false;
  const timer = setInterval(() => {
    if (busy) {
      return; // a slow `du` still counting: skip a beat rather than pile up
    }
    busy = true;
    diskMb(dir)
      .then((mb) => {
        const building = nativeBuilds(dir);
        building.forEach((name) => seen.add(name));
        const elapsedMs = performance.now() - started;
        say(
          formatInstallProgress({
            label,
            mb,
            expectedMb,
            building,
            built: seen.size,
            expectedBuilds,
            elapsedMs,
          }),
        );
      })
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Megabytes `dir` takes on disk (`du`, which is quick where a walk in JavaScript is not). */
function diskMb(/** @type {string} */ dir) {
  return new Promise((resolve, reject) => {
    const du = spawn('du', ['-sm', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    du.stdout.on('data', (chunk) => (out += chunk));
    du.once('error', reject);
    du.once('close', () => resolve(Number.parseInt(out, 10) || 0));
  });
}

/** The native modules a build process is compiling under `dir` now (read from /proc). */
function nativeBuilds(/** @type {string} */ dir) {
  const found = new Set();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (!cwd.startsWith(dir) || !BUILDERS.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'))) {
        continue;
      }
      const name = packageOfFolder(cwd);
      if (name) {
        found.add(name);
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return [...found].sort();
}
