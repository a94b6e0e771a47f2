/**
 * Runs the integration suites (test/integration/**) inside a real VS Code extension host.
 *
 *   npm run test:integration            code-server + headless Chromium (works offline)
 *   ACP_VSCODE=desktop npm run …        desktop VS Code through @vscode/test-electron (downloads VS Code)
 *
 * Steps: `npm run build`; bundle test/integration/index.ts and every *.test.ts into out/integration/
 * (CommonJS, mocha bundled in, `vscode` external); open the sample workspace test/fixtures/workspace with
 * the repo as development extension and out/integration/index.js as tests module; print mocha's output;
 * exit with the code VS Code reports. Tests can ask for screenshots (test/integration/support/screenshot.ts):
 * this launcher watches ACP_SCREENSHOT_DIR and saves test-results/<name>.png.
 *
 * ACP_TRUST=untrusted runs the Restricted Mode suite instead: workspace trust on, and an untrusted folder (made
 * in a temporary directory) whose .vscode/settings.json and .vscode/mcp.json name a command that would write a
 * marker file (test/integration/trust.test.ts checks that it never appears).
 *
 * Environment: ACP_TEST_GREP (mocha grep), ACP_INTEGRATION_TIMEOUT_MS (default 300000),
 * ACP_VERBOSE=1 (print code-server's output and every workbench log line).
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import * as esbuild from 'esbuild';
import { startCodeServer } from './codeServer.mjs';
import { chromiumPath, ensureCodeServer, repoRoot } from './tools.mjs';
import { developmentPayload, hasRenderedApp, openWorkbench, screenshot, webviewFrame } from './workbench.mjs';

const sourceDir = join(repoRoot, 'test', 'integration');
const outDir = join(repoRoot, 'out', 'integration');
const testsModule = join(outDir, 'index.js');
const sampleWorkspace = join(repoRoot, 'test', 'fixtures', 'workspace');
const timeoutMs = Number(process.env.ACP_INTEGRATION_TIMEOUT_MS ?? 300_000);
const verbose = process.env.ACP_VERBOSE === '1';

/** The whole run took longer than ACP_INTEGRATION_TIMEOUT_MS. */
class RunTimeout extends Error {}

/** Variables the tests see in the extension host. */
function testEnvironment() {
  /** @type {Record<string, string>} */
  const env = {};
  for (const name of ['ACP_TEST_GREP', 'CI', 'ACP_TRUST']) {
    const value = process.env[name];
    if (value) {
      env[name] = value;
    }
  }
  if (process.stdout.isTTY) {
    env.MOCHA_COLORS = '1'; // mocha's output ends up on this terminal
  }
  return env;
}

async function main() {
  const started = performance.now();
  await run('npm', ['run', '--silent', 'build']);
  await bundleTests();
  const code = process.env.ACP_VSCODE === 'desktop' ? await runInDesktopVsCode() : await runInCodeServer();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`[integration] ${code === 0 ? 'passed' : `FAILED (exit code ${code})`} in ${seconds} s`);
  return code;
}

/** One CommonJS file per entry; mocha is bundled so the extension host needs nothing from node_modules. */
async function bundleTests() {
  rmSync(outDir, { recursive: true, force: true }); // no stale suites from deleted test files
  const entryPoints = [
    join(sourceDir, 'index.ts'),
    ...readdirSync(sourceDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => join(sourceDir, file)),
  ];
  await esbuild.build({
    entryPoints,
    outdir: outDir,
    outbase: sourceDir,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    sourcesContent: false,
    logLevel: 'warning',
    // mocha's parallel mode (worker files found by require.resolve) is not used in the extension host.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  console.log(`[integration] bundled ${entryPoints.length - 1} suite(s) into ${relative(repoRoot, outDir)}/`);
}

/** Desktop VS Code for machines with internet: test-electron downloads it into .vscode-test/. */
async function runInDesktopVsCode() {
  const { runTests } = await import('@vscode/test-electron');
  try {
    return await runTests({
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: testsModule,
      extensionTestsEnv: testEnvironment(),
      launchArgs: [sampleWorkspace, '--disable-extensions', '--skip-welcome'],
    });
  } catch (error) {
    console.error('[integration] desktop VS Code run failed:', error);
    return 1;
  }
}

async function runInCodeServer() {
  // Before the deadline starts: a first run installs code-server (~2 min).
  await ensureCodeServer();
  chromiumPath(); // fails now, with the apt-get line, rather than after the server started
  const screenshotDir = mkdtempSync(join(tmpdir(), 'acp-screenshots-'));
  // Also on Ctrl+C, when codeServer.mjs ends the process before the finally below runs.
  const removeScreenshotDir = () => rmSync(screenshotDir, { recursive: true, force: true });
  process.once('exit', removeScreenshotDir);
  // One deadline for the whole run, start-up included: a hang anywhere fails loudly instead of waiting forever.
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new RunTimeout(`TIMEOUT: the integration run did not finish within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  deadline.catch(() => {}); // handled where it is raced; this only keeps Node from calling it unhandled
  /** @type {Awaited<ReturnType<typeof startCodeServer>> | undefined} */
  let server;
  /** @type {Awaited<ReturnType<typeof openWorkbench>> | undefined} */
  let workbench;
  const watcher = { stop: false };
  /** Waits for `promise`, or throws when the deadline passes first. */
  const inTime = (/** @type {Promise<any>} */ promise) => Promise.race([promise, deadline]);
  const untrusted = process.env.ACP_TRUST === 'untrusted' ? untrustedWorkspace() : undefined;
  const workspace = untrusted?.folder ?? sampleWorkspace;
  try {
    server = await inTime(
      startCodeServer({
        workspace,
        workspaceTrust: untrusted !== undefined,
        onOutput: verbose ? (line) => console.log(`[code-server] ${line}`) : undefined,
      }),
    );
    console.log(`[integration] code-server ${server.url} (pid ${server.pid})`);
    workbench = await inTime(
      openWorkbench({
        server,
        folder: workspace,
        payload: developmentPayload(server, {
          extensionPath: repoRoot,
          testsPath: testsModule,
          env: {
            ...testEnvironment(),
            ACP_SCREENSHOT_DIR: screenshotDir,
            ...(untrusted
              ? { ACP_TEST_GREP: 'Restricted Mode', ACP_UNTRUSTED_MARKER: untrusted.marker }
              : {}),
          },
        }),
        onLog: printTestOutput,
        showAll: verbose,
      }),
    );
    const answering = answerScreenshots(screenshotDir, workbench.page, watcher);
    try {
      return await inTime(workbench.exitCode);
    } finally {
      watcher.stop = true;
      await answering;
    }
  } catch (error) {
    console.error(`[integration] ${error instanceof Error ? error.message : error}`);
    return error instanceof RunTimeout ? 124 : 1; // 124: what timeout(1) exits with
  } finally {
    clearTimeout(timer);
    watcher.stop = true;
    await workbench?.close();
    await server?.stop();
    removeScreenshotDir();
    process.off('exit', removeScreenshotDir);
    if (untrusted) {
      rmSync(untrusted.root, { recursive: true, force: true });
    }
  }
}

/**
 * A folder as someone else's repository would be: its settings and MCP configuration name a program
 * (node -e …) that writes a marker file next to the folder. Nothing may ever run it in Restricted Mode.
 */
function untrustedWorkspace() {
  const root = mkdtempSync(join(tmpdir(), 'acp-untrusted-'));
  const folder = join(root, 'repo');
  const marker = join(root, 'MARKER');
  const writesMarker = ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`];
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  const agent = { id: 'repo-agent', label: 'Repo agent', command: process.execPath, args: writesMarker };
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    JSON.stringify(
      {
        'acpAgents.agents': [agent, { ...agent, id: 'copilot', label: 'Copilot', command: 'copilot' }],
        'acpAgents.defaultAgent': 'repo-agent',
        'acpAgents.copilotAgent': 'Repo agent',
        'acpAgents.permissions.autoApproveReads': true,
        'acpAgents.mcpServers': [
          { name: 'repo-settings-mcp', command: process.execPath, args: writesMarker },
        ],
        'mcp.servers': { 'repo-vscode-mcp': { command: process.execPath, args: writesMarker } },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(folder, '.vscode', 'mcp.json'),
    JSON.stringify({
      servers: {
        'repo-mcp': { command: process.execPath, args: writesMarker, env: { T: '${input:token}' } },
      },
    }),
  );
  writeFileSync(join(folder, 'README.md'), '# Someone else’s repository\n');
  return { root, folder, marker };
}

/** Prints mocha's report (the extension host's console) as is; errors go to stderr. */
function printTestOutput(/** @type {{ type: string, text: string }} */ log) {
  if (log.type === 'error') {
    console.error(log.text);
  } else {
    console.log(log.text);
  }
}

/** Serves the tests' screenshot requests (see test/integration/support/screenshot.ts) until told to stop. */
async function answerScreenshots(
  /** @type {string} */ dir,
  /** @type {import('playwright-core').Page} */ page,
  /** @type {{ stop: boolean }} */ watcher,
) {
  while (!watcher.stop) {
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.request.json'))) {
      const requestPath = join(dir, file);
      const answerPath = join(dir, file.replace(/\.request\.json$/, '.done.json'));
      let answer;
      try {
        const { name, waitForChatViewMs = 0, waitForText } = JSON.parse(readFileSync(requestPath, 'utf8'));
        /** The chat view's frame once it has rendered, and shows `waitForText` when one is asked for. */
        const shows = async (/** @type {import('playwright-core').Frame} */ frame) =>
          (await hasRenderedApp(frame)) &&
          (typeof waitForText !== 'string' ||
            (await frame.locator('#app').evaluate((app, text) => app.innerText.includes(text), waitForText)));
        let chatViewRendered;
        if (waitForChatViewMs > 0) {
          chatViewRendered = await webviewFrame(page, shows, { timeout: waitForChatViewMs }).then(
            () => true,
            () => false,
          );
        }
        const path = await screenshot(page, String(name));
        console.log(`[integration] screenshot ${relative(repoRoot, path)}`);
        answer = { path, chatViewRendered };
      } catch (error) {
        answer = { error: error instanceof Error ? error.message : String(error) };
      }
      rmSync(requestPath, { force: true });
      writeFileSync(`${answerPath}.tmp`, JSON.stringify(answer));
      // Renamed into place so the test never reads half an answer.
      renameSync(`${answerPath}.tmp`, answerPath);
    }
    await sleep(100);
  }
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

if (!existsSync(sampleWorkspace)) {
  console.error(`[integration] sample workspace missing: ${sampleWorkspace}`);
  process.exit(1);
}
try {
  process.exitCode = await main();
} catch (error) {
  console.error(`[integration] ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  process.exitCode = 1;
}
