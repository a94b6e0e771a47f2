import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { agentFailed, snapshot, status } from './support/builders';
import { useChatPages } from './support/suite';

const OUT = resolve(__dirname, '../../test-results');

describe('webview: Restricted Mode notice', () => {
  const chat = useChatPages();

  it('is a neutral notice with Manage Workspace Trust, not an error with Check agents', async () => {
    const page = await chat.open({ width: 420, height: 520 });
    await page.host(snapshot());
    await page.host(
      agentFailed('Demo agent (offline)', {
        kind: 'untrusted',
        message: 'This workspace is not trusted, so no agent is started.',
      }),
    );
    const banner = page.page.locator('.status-banner');
    assert.equal(await banner.getAttribute('role'), 'status');
    assert.equal(await banner.locator('[role="alert"], .agent-error').count(), 0, 'not shown as an error');
    assert.match(await banner.locator('.notice-title').innerText(), /Restricted Mode/);
    assert.match(await banner.innerText(), /not trusted/);
    const buttons = banner.locator('vscode-button');
    assert.deepEqual(await buttons.allTextContents(), ['Manage Workspace Trust']);
    await buttons.first().click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'manage_trust' });

    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/restricted-mode.png` });
    page.assertClean();
  });

  it('the empty chat shows what trust unlocks, not the tips for asking an agent (screenshot)', async () => {
    const page = await chat.open({ width: 420, height: 620 });
    await page.host(snapshot({}, { selectedAgentId: 'demo' }));
    const empty = page.page.locator('.empty-state');
    assert.match(await empty.innerText(), /Ask Copilot CLI|Ask Demo agent/, 'the normal tips before');
    await page.host(
      agentFailed('Demo agent (offline)', {
        kind: 'untrusted',
        message: 'This workspace is not trusted, so no agent is started.',
      }),
    );
    await page.page.locator('.empty-restricted').waitFor();
    const text = await page.page.locator('.empty-state').innerText();
    assert.match(text, /Trusting this folder unlocks/);
    assert.doesNotMatch(text, /Ask Demo agent|Type \/|Add Agent/);
    assert.equal(await page.page.locator('.empty-add-agent, .empty-demo').count(), 0);

    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/restricted-mode-empty.png` });
    await page.host(status({ state: 'ready', agentName: 'Demo agent (offline)' }));
    await page.page.locator('.empty-restricted').waitFor({ state: 'detached' });
    assert.match(await page.page.locator('.empty-state').innerText(), /Ask Demo agent/);
    page.assertClean();
  });
});

describe('webview: Restricted Mode locks the composer', () => {
  const chat = useChatPages();

  it('disables the message box with the reason, and clears what was said about trust once it is granted', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host({ type: 'error', message: 'This workspace is not trusted, so no agent is started.' });
    await page.host(
      status({
        state: 'error',
        agentName: 'Demo agent (offline)',
        error: { kind: 'untrusted', message: 'This workspace is not trusted, so no agent is started.' },
      }),
    );
    await page.frame();
    const input = page.page.locator('.composer-input');
    assert.equal(await input.isDisabled(), true);
    assert.equal(await input.getAttribute('placeholder'), 'Restricted Mode');
    assert.match(await page.page.locator('.composer-hint').innerText(), /Trust this workspace to chat/);
    assert.equal(await page.page.locator('.alerts .alert').count(), 1);
    await mkdir(OUT, { recursive: true });
    await page.page.screenshot({ path: `${OUT}/restricted-composer.png` });

    await page.host(status({ state: 'starting', agentName: 'Demo agent (offline)' }));
    await page.frame();
    assert.equal(await input.isDisabled(), false);
    assert.equal(await page.page.locator('.alerts .alert').count(), 0, 'the stale trust error is gone');
  });
});
