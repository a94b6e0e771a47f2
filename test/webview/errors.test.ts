import assert from 'node:assert/strict';
import { ended, events, message, snapshot, started, status, turn } from './support/builders';
import { useChatPages } from './support/suite';

describe('webview: turn errors and agent status', () => {
  const chat = useChatPages();

  it('auth_required: Sign in buttons from the agent status post authenticate', async () => {
    const page = await chat.open();
    await page.host(
      snapshot(
        { entries: [message('user', 'e1', 'hi')], turns: [turn('t1')] },
        {
          status: {
            state: 'ready',
            agentName: 'Gemini CLI',
            authMethods: [
              { id: 'oauth', name: 'Google account' },
              { id: 'api-key', name: 'API key', description: 'Use GEMINI_API_KEY' },
            ],
          },
        },
      ),
    );
    await page.host(
      events(
        ended(
          turn('t1', {
            status: 'failed',
            error: { kind: 'auth_required', message: 'Please sign in', code: -32000 },
          }),
        ),
      ),
    );
    const error = page.page.locator('.turn-footer .agent-error');
    assert.match(await error.locator('.error-title').innerText(), /Sign in required/);
    assert.match(await error.locator('.error-message').innerText(), /Please sign in \(code -32000\)/);
    const buttons = error.locator('.error-actions vscode-button');
    assert.deepEqual(await buttons.allTextContents(), [
      'Sign in with Google account',
      'Sign in with API key',
    ]);
    await buttons.nth(1).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'authenticate', methodId: 'api-key' });
  });

  it('process_exited: "Agent exited", stderr tail and Restart', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [message('user', 'e1', 'hi')], turns: [turn('t1')] }));
    await page.host(
      events(
        ended(
          turn('t1', {
            status: 'interrupted',
            error: { kind: 'process_exited', message: 'The agent exited with code 1.' },
            stderrTail: ['panic: out of memory', 'goroutine 1 [running]'],
          }),
        ),
      ),
    );
    const error = page.page.locator('.turn-footer .agent-error');
    assert.match(await error.locator('.error-title').innerText(), /Agent exited/);
    assert.match(await error.locator('.error-message').innerText(), /exited with code 1/);
    const stderr = error.locator('.stderr');
    assert.equal(await stderr.locator('.stderr-tail').isVisible(), false, 'stderr starts collapsed');
    await stderr.locator('.disclosure-header').click();
    assert.equal(
      await stderr.locator('.stderr-tail').textContent(),
      'panic: out of memory\ngoroutine 1 [running]',
    );
    await error.locator('vscode-button', { hasText: 'Restart' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'restart_agent' });
  });

  it('rate_limited: says so, with the message', async () => {
    const page = await chat.open();
    await page.host(snapshot({ turns: [turn('t1')] }));
    await page.host(
      events(
        ended(
          turn('t1', {
            status: 'failed',
            error: { kind: 'rate_limited', message: 'Try again in 30s', code: 429 },
          }),
        ),
      ),
    );
    const error = page.page.locator('.agent-error');
    assert.equal(await error.getAttribute('data-kind'), 'rate_limited');
    assert.match(await error.innerText(), /Rate limited/);
    assert.match(await error.innerText(), /Try again in 30s \(code 429\)/);
  });

  it('other errors show their message and code; cancelled turns a small note', async () => {
    const page = await chat.open();
    await page.host(snapshot({ turns: [turn('t1')] }));
    await page.host(
      events(
        ended(
          turn('t1', {
            status: 'failed',
            error: { kind: 'invalid_params', message: 'Bad prompt', code: -32602 },
          }),
        ),
        started(turn('t2')),
        ended(turn('t2', { status: 'cancelled' })),
        started(turn('t3')),
        ended(turn('t3', { status: 'completed', stopReason: 'max_tokens' })),
      ),
    );
    assert.match(
      await page.page.locator('[data-turn-id="t1"] .agent-error').innerText(),
      /Error\s+Bad prompt \(code -32602\)/,
    );
    assert.equal(await page.page.locator('[data-turn-id="t2"] .turn-footer').innerText(), 'Cancelled');
    assert.match(await page.page.locator('[data-turn-id="t3"] .turn-footer').innerText(), /maximum length/);
  });

  it('shows a working indicator while a turn runs', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(events(started(turn('t1'))));
    assert.equal(await page.page.locator('[data-turn-id="t1"] .turn-working').innerText(), 'Working…');
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.equal(await page.page.locator('.turn-working').count(), 0);
  });

  it('agent_status error: a banner with the same actions', async () => {
    const page = await chat.open();
    await page.host(snapshot());
    await page.host(
      status({
        state: 'error',
        agentName: 'Copilot CLI',
        error: { kind: 'auth_required', message: 'Not signed in' },
        authMethods: [{ id: 'github', name: 'GitHub' }],
      }),
    );
    const banner = page.page.locator('.status-banner');
    await banner.locator('vscode-button', { hasText: 'Sign in' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'authenticate', methodId: 'github' });

    await page.host(
      status({
        state: 'error',
        error: { kind: 'process_exited', message: 'spawn copilot ENOENT', stderrTail: ['not found'] },
      }),
    );
    assert.match(await banner.innerText(), /Agent exited/);
    assert.match(await banner.innerText(), /spawn copilot ENOENT/);
    await banner.locator('vscode-button', { hasText: 'Restart' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'restart_agent' });

    await page.host(status({ state: 'ready', agentName: 'Copilot CLI' }));
    assert.equal(await banner.isVisible(), false);
  });

  it('agent_status error: "Check agents" runs the agent doctor; a failed turn does not offer it', async () => {
    const page = await chat.open();
    await page.host(snapshot({ entries: [message('user', 'e1', 'hi')], turns: [turn('t1')] }));
    await page.host(
      status({
        state: 'error',
        agentName: 'Copilot CLI',
        error: { kind: 'process_exited', message: 'The agent failed to start: spawn copilot ENOENT' },
      }),
    );
    const banner = page.page.locator('.status-banner');
    const buttons = banner.locator('.error-actions vscode-button');
    assert.deepEqual(await buttons.allTextContents(), ['Restart', 'Check agents']);
    assert.equal(await buttons.nth(1).getAttribute('secondary'), '', 'secondary beside Restart');
    await banner.locator('vscode-button', { hasText: 'Check agents' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'check_agents' });

    await page.host(
      events(
        ended(
          turn('t1', {
            status: 'failed',
            error: { kind: 'internal', message: 'Internal error', code: -32603 },
          }),
        ),
      ),
    );
    assert.equal(await page.page.locator('.turn-footer .agent-error').count(), 1);
    assert.equal(
      await page.page.locator('.turn-footer vscode-button', { hasText: 'Check agents' }).count(),
      0,
    );
  });

  it('shows notices inline', async () => {
    const page = await chat.open();
    await page.host(snapshot({ turns: [turn('t1')] }));
    await page.host(
      events({
        type: 'notice',
        notice: { severity: 'warning', title: 'Context almost full', description: 'Consider a new chat.' },
      }),
    );
    const notice = page.page.locator('.notice-warning');
    assert.match(await notice.innerText(), /Context almost full/);
    assert.match(await notice.innerText(), /Consider a new chat/);
  });
});
