/**
 * The released extension, not the development folder: builds the `.vsix` the way `npm run package` does,
 * checks its file list against what the extension loads at runtime (derived from package.json, src/ and the
 * CSS those load — see scripts/package.mjs), installs it into a fresh code-server with `--install-extension`
 * and uses the installed copy as a user would: the view opens, the demo agent answers, the icons render.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { startCodeServer, type CodeServer } from '../../scripts/codeServer.mjs';
import {
  buildVsix,
  checkPackageFiles,
  cssReferences,
  extensionFiles,
  installVsix,
  runtimeFiles,
  vsixEntries,
} from '../../scripts/package.mjs';
import { chromiumPath, ensureCodeServer } from '../../scripts/tools.mjs';
import { openWorkbench, screenshot, webviewFrame, type Workbench } from '../../scripts/workbench.mjs';
import { openChat, runCommand, sendPrompt, waitForAgentText, waitForTurnStatus } from '../e2e/support/chat';

describe('the packaged extension (.vsix)', () => {
  let tempRoot: string;
  let vsix: string;
  let packaged: string[];

  before(() => {
    tempRoot = mkdtempSync(join(tmpdir(), 'acp-package-'));
    vsix = buildVsix({ out: join(tempRoot, 'acp-agents.vsix'), quiet: true });
    packaged = extensionFiles(vsixEntries(vsix));
  });

  after(() => {
    rmSync(tempRoot, { recursive: true, force: true });
  });

  it('derives the runtime files by following the code and its stylesheets to the codicon font', () => {
    const required = runtimeFiles();
    // Named in package.json, in src/ (the webview HTML, the demo agent), and only in CSS (@import, url()).
    for (const file of [
      'dist/extension.js',
      'dist/chat.js',
      'dist/connection.js',
      'dist/checkpoints.js',
      'dist/doctor.js',
      'dist/mcp.js',
      'dist/mentions.js',
      'dist/registry.js',
      'dist/patterns.js',
      'media/icon.png',
      'dist/webview.js',
      'dist/demo-agent.js',
      'dist/codicon.css',
      'media/chat/base.css',
      'dist/codicon.ttf',
    ]) {
      assert.ok(
        required.includes(file),
        `${file} is not among the derived runtime files: ${required.join(', ')}`,
      );
    }
    assert.deepEqual(
      cssReferences(`/* url(skip.png) */ @import url('a/b.css'); @import "c.css";
        src: url("./font.ttf?abc#x") format("truetype"); background: url(data:image/png;base64,AA) url(https://x/y.png);`),
      ['a/b.css', 'c.css', './font.ttf'],
    );
  });

  it('holds every runtime file, and no sources, tests, maps or node_modules', () => {
    const { missing, forbidden } = checkPackageFiles(packaged, runtimeFiles());
    assert.deepEqual(missing, [], `the .vsix lacks runtime files (see .vscodeignore)`);
    assert.deepEqual(forbidden, [], `the .vsix holds files that must not ship`);
    // The check itself notices a gap: the same list without the font is reported.
    assert.deepEqual(
      checkPackageFiles(
        packaged.filter((file) => file !== 'dist/codicon.ttf'),
        runtimeFiles(),
      ).missing,
      ['dist/codicon.ttf'],
    );
    for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE.txt'].map((f) => f.toLowerCase())) {
      assert.ok(
        packaged.some((name) => name.toLowerCase() === file),
        `${file} is not in the package: ${packaged.join(', ')}`,
      );
    }
  });

  describe('installed into a fresh code-server with --install-extension', () => {
    let server: CodeServer | undefined;
    let workbench: Workbench | undefined;
    let frame: Frame;

    before(async function () {
      this.timeout(600_000); // a first run installs code-server into .tools/
      await ensureCodeServer({ quiet: true });
      chromiumPath();
      const extensionsDir = join(tempRoot, 'extensions');
      const userDataDir = join(tempRoot, 'user-data');
      const output = await installVsix(vsix, { extensionsDir, userDataDir });
      assert.match(output, /successfully installed/i, output);
      const installed = readdirSync(extensionsDir).filter((name) =>
        name.startsWith('acp-agents.acp-agents-'),
      );
      assert.equal(installed.length, 1, `extensions folder: ${readdirSync(extensionsDir).join(', ')}`);
      const workspace = join(tempRoot, 'workspace');
      // A workspace of its own: nothing of the development folder is visible to the installed copy.
      mkdirSync(workspace, { recursive: true });
      writeFileSync(join(workspace, 'notes.txt'), 'hello\n');
      server = await startCodeServer({ workspace, extensionsDir, userDataDir });
      // No development payload: VS Code loads only what --install-extension put in the extensions folder.
      workbench = await openWorkbench({ server, folder: workspace, onLog: () => {} });
      frame = await openChat(workbench.page, { timeout: 60_000 });
    });

    afterEach(async function () {
      if (this.currentTest?.state === 'failed' && workbench) {
        console.log(workbench.logs.map((log) => `    [workbench ${log.type}] ${log.text}`).join('\n'));
        await screenshot(workbench.page, `failed-package-${this.currentTest.title}`).catch(() => undefined);
      }
    });

    after(async () => {
      await workbench?.close();
      await server?.stop();
    });

    it('runs the installed copy, not a development folder', async () => {
      assert.ok(workbench);
      const extensionLogs = workbench.allLogs.map((log) => log.text).join('\n');
      assert.doesNotMatch(extensionLogs, /extensionDevelopmentPath/);
      // The webview's resources are served from the installed extension's folder.
      const scriptSource = await frame.evaluate(
        () => document.querySelector('script[type="module"]')?.getAttribute('src') ?? '',
      );
      assert.match(scriptSource, /extensions\/acp-agents\.acp-agents-[\d.]+\/dist\/webview\.js/);
    });

    it('the demo agent answers in the chat', async () => {
      const turnId = await sendPrompt(frame, 'hello from the package');
      await waitForTurnStatus(frame, turnId, 'completed', { timeout: 60_000 });
      await waitForAgentText(frame, turnId, 'You said: hello from the package');
    });

    it('loads the codicon font and renders the icons with it', async () => {
      const fonts = await frame.evaluate(async () => {
        await document.fonts.ready;
        const icon = document.querySelector('.codicon');
        return {
          iconCount: document.querySelectorAll('.codicon').length,
          iconFontFamily: icon ? getComputedStyle(icon, '::before').fontFamily : '',
          faces: [...document.fonts].map((face) => ({ family: face.family, status: face.status })),
          checked: document.fonts.check('16px codicon'),
        };
      });
      assert.ok(fonts.iconCount > 0, 'the chat shows no .codicon icon');
      assert.match(fonts.iconFontFamily, /codicon/, `computed font of a .codicon: ${fonts.iconFontFamily}`);
      const codicon = fonts.faces.filter((face) => /codicon/i.test(face.family));
      assert.ok(codicon.length > 0, `no codicon font face: ${JSON.stringify(fonts.faces)}`);
      assert.ok(
        codicon.every((face) => face.status === 'loaded'),
        `the codicon font did not load: ${JSON.stringify(codicon)}`,
      );
      assert.equal(fonts.checked, true);
      await screenshot(workbench!.page, 'package-installed-chat');
    });

    it('"ACP: Check Agents" reports the demo agent ready (the production bundle runs the doctor)', async () => {
      assert.ok(workbench);
      await runCommand(workbench.page, 'ACP: Check Agents');
      const preview = await webviewFrame(
        workbench.page,
        async (candidate) => (await candidate.locator('h1', { hasText: 'ACP agents check' }).count()) > 0,
        { timeout: 60_000 },
      );
      const rows = await preview.locator('table tbody tr').allInnerTexts();
      const demo = rows.find((row) => row.startsWith('Demo agent (offline)'));
      assert.match(demo ?? `(no demo row in ${JSON.stringify(rows)})`, /ready\s+yes\s+\d+ ms\s+yes/);
    });
  });
});
