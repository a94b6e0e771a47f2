/**
 * `npm start`: builds the extension and opens it in VS Code on the sample workspace.
 *
 *  - Desktop VS Code (`code` on PATH): `code --extensionDevelopmentPath=<repo> test/fixtures/workspace`.
 *  - Otherwise code-server on 127.0.0.1 (port $PORT, else 8080 if free, else any free port) with the repo
 *    installed as an extension (a symlink in the extensions folder, so `npm run watch` + "Developer: Reload
 *    Window" picks up changes). Open the printed URL in a browser; Ctrl+C stops the server.
 *
 * Settings, layout and the extensions folder of the code-server run live in .tools/start/ and persist
 * between runs. ACP_START_WORKSPACE opens another folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isPortFree, freePort, startCodeServer } from './codeServer.mjs';
import { formatDuration } from './installProgress.mjs';
import { ensureCodeServer, repoRoot, toolsDir } from './tools.mjs';

const workspace = resolve(process.env.ACP_START_WORKSPACE ?? join(repoRoot, 'test', 'fixtures', 'workspace'));
const startDir = join(toolsDir, 'start');

/** What `npm start` says it does: numbered steps, each with how long it took. */
const say = (/** @type {string} */ line) => console.log(`[start] ${line}`);

async function main() {
  const started = performance.now();
  const desktop = onPath('code');
  const steps = desktop ? 2 : 3;
  await step(`1/${steps} building the extension (esbuild → dist/)`, () =>
    run('npm', ['run', '--silent', 'build']),
  );
  if (desktop) {
    say(`2/${steps} desktop VS Code found: opening it with the extension under development`);
    await run('code', [`--extensionDevelopmentPath=${repoRoot}`, workspace]);
    return;
  }
  // The first run downloads and builds code-server (a few minutes; it prints its own progress lines).
  await step(`2/${steps} VS Code in the browser (code-server in .tools/)`, () => ensureCodeServer());
  const extensionsDir = join(startDir, 'extensions');
  linkExtension(extensionsDir);
  const port = await choosePort();
  const logFile = join(startDir, 'code-server.log');
  const log = createWriteStream(logFile);
  const server = await step(`3/${steps} starting code-server on 127.0.0.1:${port}`, () =>
    startCodeServer({
      workspace,
      port,
      extensionsDir,
      userDataDir: join(startDir, 'user-data'),
      // The agents the extension starts should see the user's real config folders (e.g. ~/.config/opencode).
      isolateXdg: false,
      onOutput: (line) => log.write(`${line}\n`),
    }),
  );
  // Slashes left readable: code-server takes the folder as a plain path.
  const url = `${server.url}/?folder=${workspace.split('/').map(encodeURIComponent).join('/')}`;
  say(`ready in ${formatDuration(performance.now() - started)}`);
  console.log(`
  ACP Agents is running in code-server (VS Code in the browser):

      ${url}

  Open it in a browser on this machine. After \`npm run watch\` rebuilds, run "Developer: Reload Window".
  Server log: ${relative(repoRoot, logFile)}. Ctrl+C stops the server.
`);
  // Ctrl+C and SIGTERM are handled by codeServer.mjs (it stops the server and exits); this only returns
  // when the server dies on its own.
  const how = await server.exited;
  await server.stop();
  throw new Error(`code-server exited unexpectedly (${how}); see ${relative(repoRoot, logFile)}`);
}

/**
 * Runs one step of `npm start`, saying what it is before and how long it took after.
 * @template T
 * @param {string} what
 * @param {() => Promise<T>} work
 * @returns {Promise<T>}
 */
async function step(what, work) {
  say(`${what} …`);
  const began = performance.now();
  const result = await work();
  say(`${what.replace(/^\d+\/\d+ /, '')}: done in ${formatDuration(performance.now() - began)}`);
  return result;
}

/**
 * Installs the repo as `<publisher>.<name>-<version>` by symlink: code-server loads it like an installed
 * extension (main: ./dist/extension.js) and always sees the latest build. Older links are replaced.
 */
function linkExtension(/** @type {string} */ extensionsDir) {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  mkdirSync(extensionsDir, { recursive: true });
  for (const entry of readdirSync(extensionsDir)) {
    if (entry.startsWith(`${id}-`)) {
      rmSync(join(extensionsDir, entry), { recursive: true, force: true });
    }
  }
  // extensions.json caches what is installed; rebuilt from the folder, it always matches the link below.
  rmSync(join(extensionsDir, 'extensions.json'), { force: true });
  symlinkSync(repoRoot, join(extensionsDir, `${id}-${manifest.version}`), 'dir');
}

async function choosePort() {
  if (process.env.PORT) {
    const port = Number(process.env.PORT);
    if (!(await isPortFree(port))) {
      throw new Error(`PORT=${port} is in use on 127.0.0.1`);
    }
    return port;
  }
  return (await isPortFree(8080)) ? 8080 : freePort();
}

function onPath(/** @type {string} */ command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function run(/** @type {string} */ command, /** @type {string[]} */ args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolveRun(undefined)
        : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
