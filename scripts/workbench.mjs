/**
 * Drives a code-server workbench from headless Chromium (playwright-core + Debian's chromium): opens the
 * workbench with a smoke-test-driver payload (development extension, tests module, environment), collects
 * the extension host's console lines, reports the exit code VS Code gives when a tests module finishes, and
 * offers the few UI helpers our launchers and e2e tests need.
 *
 *   const wb = await openWorkbench({ server, folder, payload: developmentPayload(server, { extensionPath }) });
 *   await openAcpView(wb.page);
 *   const frame = await webviewFrame(wb.page, hasRenderedApp);   // the chat view, once rendered
 *   await screenshot(wb.page, 'my-shot');
 *   await wb.close();
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { URL } from 'node:url';
import { format } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { chromiumPath, repoRoot } from './tools.mjs';

export const VIEWPORT = { width: 1400, height: 900 };
export const resultsDir = join(repoRoot, 'test-results');

/** Chromium flags for a quiet, offline, container-friendly headless run. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * What the workbench logs besides the extension host's console: connection set-up, service worker, offline
 * gallery lookups. Lines matching these are kept in `allLogs` but not shown. (With a tests module loaded the
 * extension host's console arrives as plain info lines with no prefix, so known noise is what can be dropped.)
 */
const NOISE = [
  /^Resolv(ing|ed) connection token/,
  /^Creating a socket/,
  /^Updating additional builtin extensions cache/,
  /^\[(Service Worker|AgentHost[^\]]*|AccountPolicyGate|reconnection-grace-time|driver)\]/,
  /open-vsx\.org|marketplace|extensionquery|ENOTFOUND|getaddrinfo/i,
  /authentication provider '\w+' to register/,
  /Failed to load resource.*404/i,
];

/**
 * @typedef {object} WorkbenchLog
 * @property {string} type   VS Code's level: trace, debug, info, warn, error.
 * @property {string} text
 *
 * @typedef {object} OpenWorkbenchOptions
 * @property {{ url: string, port: number }} server
 * @property {string} folder                     Absolute workspace folder to open.
 * @property {[string, string][]} [payload]      Smoke-test-driver payload pairs (see developmentPayload()).
 * @property {(log: WorkbenchLog) => void} [onLog]  Called for each info/warn/error line that is not workbench
 *                                               noise (default: print it). Every line is kept in `allLogs`.
 * @property {boolean} [showAll]                 Pass the noise to onLog too (debugging).
 * @property {string} [userAgent]                The browser's user agent: the web workbench takes its OS (and
 *                                               so Mac or Windows keybindings) from it.
 * @property {boolean} [webviewsOwnSite]         Serve webviews from a site of their own (see
 *                                               `ownSiteContext`), so Chromium gives them a renderer of
 *                                               their own, as VS Code desktop and vscode.dev do.
 *
 * @typedef {object} Workbench
 * @property {import('playwright-core').Browser | null} browser  null with `webviewsOwnSite` (a persistent profile)
 * @property {import('playwright-core').Page} page
 * @property {WorkbenchLog[]} logs       Lines that passed the noise filter.
 * @property {WorkbenchLog[]} allLogs    Every line the workbench logged.
 * @property {Promise<number>} exitCode  Settles when VS Code reports that a tests module's run() finished.
 * @property {() => Promise<void>} close Closes Chromium (and its temporary profile).
 */

/** Chromium home folders of open workbenches, removed on exit if close() never ran (Ctrl+C). */
const liveHomeDirs = new Set();
process.once('exit', () => liveHomeDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Launches Chromium and opens the workbench. The automation hooks are exposed before navigation: the
 * workbench looks them up while it starts.
 * @param {OpenWorkbenchOptions} options
 * @returns {Promise<Workbench>}
 */
export async function openWorkbench({
  server,
  folder,
  payload,
  onLog,
  showAll = false,
  userAgent,
  webviewsOwnSite = false,
}) {
  const print = onLog ?? printLog;
  /** @type {WorkbenchLog[]} */
  const logs = [];
  /** @type {WorkbenchLog[]} */
  const allLogs = [];
  /** @type {(code: number) => void} */
  let reportExit = () => {};
  /** @type {Promise<number>} */
  const exitCode = new Promise((resolveExit) => (reportExit = resolveExit));

  // Playwright gives every launch a fresh temporary profile and deletes it on close; the XDG folders keep
  // Chromium's crash database and dconf cache out of $HOME as well.
  const homeDir = mkdtempSync(join(tmpdir(), 'acp-chromium-'));
  liveHomeDirs.add(homeDir);
  const close = async () => {
    await (browser ?? context)?.close().catch(() => {});
    rmSync(homeDir, { recursive: true, force: true });
    liveHomeDirs.delete(homeDir);
  };
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  try {
    const launch = {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      env: { ...process.env, XDG_CONFIG_HOME: homeDir, XDG_CACHE_HOME: homeDir },
      headless: true,
      timeout: 60_000,
      // Signals belong to the caller (codeServer.mjs stops its servers and exits); playwright still kills
      // Chromium when this process exits.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    };
    const pageOptions = { viewport: VIEWPORT, ...(userAgent ? { userAgent } : {}) };
    if (webviewsOwnSite) {
      context = await ownSiteContext(homeDir, launch, pageOptions, new URL(server.url).port);
    } else {
      browser = await chromium.launch(launch);
      context = await browser.newContext(pageOptions);
    }
    // A persistent profile opens with a blank page: that one, not a second.
    const page = context.pages()[0] ?? (await context.newPage());
    await page.exposeFunction(
      'codeAutomationLog',
      (/** @type {string} */ type, /** @type {unknown} */ args) => {
        // The workbench passes console-style arguments: a printf-like format string and its values.
        const text = Array.isArray(args) ? format(...args) : String(args);
        const log = { type, text };
        allLogs.push(log);
        if (showAll || isInteresting(log)) {
          logs.push(log);
          print(log);
        }
      },
    );
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => reportExit(code));
    await page.goto(workbenchUrl(server, folder, payload), {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    return { browser: browser ?? null, page, logs, allLogs, exitCode, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A browser whose workbench serves webviews from `<hash>.localhost` (Chromium resolves every `*.localhost`
 * to this machine) while the workbench is on 127.0.0.1: another site, so Chromium gives the webviews a
 * renderer of their own — code-server serves them from the workbench's own origin, where they share its
 * main thread. The webview's loader accepts a host named by the hash of the workbench's origin, which the
 * workbench puts in place of `{{uuid}}`. The workbench's CSP allows webview frames from vscode-cdn.net only
 * (bypassed), and the webview registers a service worker on its site, which Chromium allows a third-party
 * frame only where third-party cookies are: a persistent profile that allows them.
 * @param {string} homeDir
 * @param {import('playwright-core').LaunchOptions} launch
 * @param {import('playwright-core').BrowserContextOptions} pageOptions
 * @param {string} port  the workbench's
 */
async function ownSiteContext(homeDir, launch, pageOptions, port) {
  const profile = join(homeDir, 'profile');
  mkdirSync(join(profile, 'Default'), { recursive: true });
  writeFileSync(
    join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { cookie_controls_mode: 0, block_third_party_cookies: false } }),
  );
  const context = await chromium.launchPersistentContext(profile, {
    ...launch,
    ...pageOptions,
    bypassCSP: true,
  });
  /* global window, Element */
  // The workbench reads its configuration from this element's attribute as it starts.
  await context.addInitScript((workbenchPort) => {
    const getAttribute = Element.prototype.getAttribute;
    Element.prototype.getAttribute = function (name) {
      const value = getAttribute.call(this, name);
      if (this.id !== 'vscode-workbench-web-configuration' || name !== 'data-settings' || !value) {
        return value;
      }
      const settings = JSON.parse(value);
      // `window.URL`: a bare `URL` would be this module's import, not the page's.
      const path = new window.URL(settings.webviewEndpoint, window.location.href).pathname;
      return JSON.stringify({
        ...settings,
        webviewEndpoint: `http://{{uuid}}.localhost:${workbenchPort}${path}`,
      });
    };
  }, port);
  return context;
}

/** `http://127.0.0.1:<port>/?folder=<abs>&payload=<json>` */
export function workbenchUrl(
  /** @type {{ url: string }} */ server,
  /** @type {string} */ folder,
  /** @type {[string, string][] | undefined} */ payload,
) {
  const url = new URL(server.url);
  url.pathname = '/';
  url.searchParams.set('folder', resolve(folder));
  if (payload && payload.length > 0) {
    url.searchParams.set('payload', JSON.stringify(payload));
  }
  return url.toString();
}

/**
 * Payload pairs that load `extensionPath` as the development extension, optionally run a tests module in the
 * extension host, and set extension host environment variables. Paths are on the server's file system. One
 * development extension only: the remote extension host loads the last `extensionDevelopmentPath` it is
 * given, so a second one replaced ours (install any other extension in the server's extensions folder:
 * test/e2e/support/workbench.ts, `otherExtensions`).
 * @param {{ port: number }} server
 * @param {{ extensionPath: string, testsPath?: string, env?: Record<string, string> }} options
 * @returns {[string, string][]}
 */
export function developmentPayload(server, { extensionPath, testsPath, env }) {
  const remote = (/** @type {string} */ path) => `vscode-remote://127.0.0.1:${server.port}${resolve(path)}`;
  /** @type {[string, string][]} */
  const pairs = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['skipWelcome', 'true'],
  ];
  if (testsPath) {
    pairs.push(['extensionTestsPath', remote(testsPath)]);
  }
  if (env && Object.keys(env).length > 0) {
    pairs.push(['extensionEnvironment', JSON.stringify(env)]);
  }
  return pairs;
}

/**
 * Clicks the ACP Agents activity-bar item and waits for the chat webview's iframe.
 * @param {import('playwright-core').Page} page
 */
export async function openAcpView(page, { timeout = 30_000 } = {}) {
  const item = page.locator('.activitybar a.action-label[aria-label^="ACP Agents"]');
  await item.waitFor({ state: 'visible', timeout });
  // Clicking the item of the container already shown closes the side bar: click only when not selected
  // (its <li role="tab"> carries aria-selected).
  const selected = await item.evaluate((el) => el.closest('[role="tab"]')?.getAttribute('aria-selected'));
  if (selected !== 'true') {
    await item.click();
  }
  // Move the pointer off the item so its hover tooltip does not cover screenshots.
  await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
  await page.locator('iframe.webview').first().waitFor({ state: 'attached', timeout });
}

/**
 * The webview frame for which `predicate` holds. Webviews are nested iframes (`iframe.webview` → inner
 * `#active-frame`), so this searches every frame of the page until one matches.
 * @param {import('playwright-core').Page} page
 * @param {(frame: import('playwright-core').Frame) => Promise<boolean>} [predicate]  Default: has `#app`.
 * @returns {Promise<import('playwright-core').Frame>}
 */
export async function webviewFrame(page, predicate = hasApp, { timeout = 30_000 } = {}) {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame() || frame.isDetached()) {
        continue;
      }
      if (await predicate(frame).catch(() => false)) {
        return frame;
      }
    }
    await sleep(250);
  }
  throw new Error(`no webview frame matched within ${timeout / 1000} s (frames: ${page.frames().length})`);
}

/** The chat view's frame: the one whose document has `#app`. */
export async function hasApp(/** @type {import('playwright-core').Frame} */ frame) {
  return (await frame.locator('#app').count()) > 0;
}

/** The chat view's frame once its script has rendered: `#app` has elements and visible text. */
export async function hasRenderedApp(/** @type {import('playwright-core').Frame} */ frame) {
  const app = frame.locator('#app');
  return (
    (await app.count()) > 0 &&
    (await app.evaluate((root) => root.childElementCount > 0 && root.innerText.trim() !== ''))
  );
}

/**
 * Saves a full-window screenshot as test-results/<name>.png and returns its path.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name.replace(/[^\w.-]+/g, '_')}.png`);
  await page.screenshot({ path, timeout: 30_000 });
  return path;
}

function isInteresting(/** @type {WorkbenchLog} */ log) {
  return (
    (log.type === 'info' || log.type === 'warn' || log.type === 'error') &&
    !NOISE.some((p) => p.test(log.text))
  );
}

function printLog(/** @type {WorkbenchLog} */ log) {
  const line = `[workbench ${log.type}] ${log.text}`;
  if (log.type === 'error') {
    console.error(line);
  } else {
    console.log(line);
  }
}
