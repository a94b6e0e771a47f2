/**
 * The agent doctor as a user meets it: the chat's agent fails to start, the banner offers "Check agents",
 * a click opens the report in a markdown preview that says, per agent, what is wrong and what to do. The
 * window is the README screenshot docs/doctor.png.
 */
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/tools.mjs';
import { docsScreenshot, UI_TIMEOUT } from './support/chat';
import { webviewFrame } from './support/workbench';
import { useWorkbench } from './support/lifecycle';

/**
 * A folder for the extension host's PATH with the demo agent under names of its own, as an installed agent
 * would be (a `#!/usr/bin/env node` script): the report then shows commands, not this checkout's paths.
 */
function agentBin(): string {
  const bin = mkdtempSync(join(tmpdir(), 'acp-doctor-bin-'));
  for (const name of ['demo-acp', 'team-acp']) {
    const script = join(bin, name);
    writeFileSync(
      script,
      `#!/usr/bin/env node\nrequire(${JSON.stringify(join(repoRoot, 'dist', 'demo-agent.js'))});\n`,
    );
    chmodSync(script, 0o755);
  }
  return bin;
}

describe('agent doctor from the chat (README screenshot)', () => {
  let bin: string | undefined;
  const chat = useWorkbench(() => {
    bin = agentBin();
    return {
      env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
      settings: {
        // The chat starts with an agent that is not installed; two more are configured beside it.
        'acpAgents.agents': [
          { name: 'Gemini (work)', command: 'gemini-not-installed', args: ['--acp'] },
          { name: 'Team agent', command: 'team-acp', env: { TEST_AGENT_REQUIRE_AUTH: '1' } },
          { name: 'Demo agent', command: 'demo-acp' },
        ],
        'acpAgents.defaultAgent': 'Gemini (work)',
      },
      layout: { width: 1600, height: 1000, sidebarWidth: 460 },
    };
  });
  after(() => {
    if (bin !== undefined) {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('the failed start offers "Check Agents", which opens the report (docs/doctor.png)', async () => {
    const banner = chat.frame.locator('.status-banner .agent-error');
    await banner.waitFor({ state: 'visible', timeout: UI_TIMEOUT });
    assert.match(await banner.innerText(), /gemini-not-installed was not found on PATH/);
    assert.deepEqual(await banner.locator('.error-actions vscode-button').allTextContents(), [
      'Add Agent…',
      'Check Agents',
      'Show Agent Log',
    ]);
    await banner.locator('vscode-button', { hasText: 'Check Agents' }).click();

    const preview = await webviewFrame(
      chat.page,
      async (candidate) => (await candidate.locator('h1', { hasText: 'ACP agents check' }).count()) > 0,
      { timeout: 60_000 },
    );
    const rows = await preview.locator('table tbody tr').allInnerTexts();
    const row = (label: string): string => rows.find((text) => text.startsWith(label)) ?? '(no row)';
    assert.match(row('Gemini (work)'), /not installed/);
    assert.match(row('Demo agent'), /ready/);
    assert.match(row('Team agent'), /not signed in/);
    assert.match(row('GitHub Copilot CLI'), /not installed/);
    const text = await preview.locator('body').innerText();
    assert.match(text, /`?gemini-not-installed`? was not found on PATH/);
    assert.match(text, /Fix: Sign in: Test login/);
    // The fix comes from the ACP Registry (here the list shipped with the extension: no network).
    assert.match(
      text,
      /Fix: Run ACP: Add Agent… and pick GitHub Copilot \([^)]+\): it is installed and added for you/,
    );

    // The README picture: the report next to the chat.
    const path = await docsScreenshot(chat.page, 'doctor.png');
    assert.ok(statSync(path).size > 1_000, `${path} is empty`);
  });
});
