import assert from 'node:assert/strict';
import { agentFailed, ended, events, message, snapshot, started, status, turn } from './support/builders';
import { useChatPages } from './support/suite';
import type { HostMessage } from '../../src/protocol';

/** Hostile data as the host hands it on: already bounded and pretty-printed, still the agent's text. */
const HOSTILE_DATA = JSON.stringify(
  {
    status: 502,
    body: '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script>',
  },
  null,
  2,
);

/** An alert for an action the agent refused, with what it sent. */
const UNKNOWN_MODE_ALERT: HostMessage = {
  type: 'error',
  message: 'Invalid params: unknown mode warp',
  details: {
    kind: 'invalid_params',
    message: 'Invalid params: unknown mode warp',
    code: -32602,
    data: '"modeId"',
  },
};

describe('webview: turn errors and agent status', () => {
  const chat = useChatPages();

  /** A chat page showing one turn, t1, that the user started with "hi". */
  async function openWithOneTurn(): Promise<Awaited<ReturnType<typeof chat.open>>> {
    const page = await chat.openShowing(
      snapshot({ entries: [message('user', 'e1', 'hi')], turns: [turn('t1')] }),
    );
    return page;
  }

  /** The host ends turn t1 with `outcome`. */
  async function endFirstTurn(
    page: Awaited<ReturnType<typeof chat.open>>,
    outcome: Parameters<typeof turn>[1],
  ): Promise<void> {
    await page.host(events(ended(turn('t1', outcome))));
  }

  it('auth_required: Sign in buttons from the agent status post authenticate', async () => {
    const page = await chat.openShowing(
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
    await endFirstTurn(page, {
      status: 'failed',
      error: { kind: 'auth_required', message: 'Please sign in', code: -32000 },
    });
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
    const page = await openWithOneTurn();
    await endFirstTurn(page, {
      status: 'interrupted',
      error: { kind: 'process_exited', message: 'The agent exited with code 1.' },
      stderrTail: ['panic: out of memory', 'goroutine 1 [running]'],
    });
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
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await endFirstTurn(page, {
      status: 'failed',
      error: { kind: 'rate_limited', message: 'Try again in 30s', code: 429 },
    });
    const error = page.page.locator('.agent-error');
    assert.equal(await error.getAttribute('data-kind'), 'rate_limited');
    assert.match(await error.innerText(), /Rate limited/);
    assert.match(await error.innerText(), /Try again in 30s \(code 429\)/);
  });

  it('other errors show their message and code; cancelled turns a small note', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
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
    const page = await chat.openShowing(snapshot());
    await page.host(events(started(turn('t1'))));
    assert.equal(await page.page.locator('[data-turn-id="t1"] .turn-working').innerText(), 'Working…');
    await page.host(events(ended(turn('t1', { status: 'completed', stopReason: 'end_turn' }))));
    assert.equal(await page.page.locator('.turn-working').count(), 0);
  });

  it('agent_status error: a banner with the same actions', async () => {
    const page = await chat.openShowing(snapshot());
    await page.host(
      status({
        state: 'error',
        agentName: 'Copilot CLI',
        error: { kind: 'auth_required', message: 'Not signed in' },
        authMethods: [{ id: 'github', name: 'GitHub' }],
      }),
    );
    const banner = page.page.locator('.status-banner');
    // Shown as soon as the agent says so (after initialize), before any message: sign in to whom.
    assert.equal(await banner.locator('.error-title').innerText(), 'Sign in to Copilot CLI');
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

  it('an agent that is not installed: said as the doctor says it, with Add Agent…, Check Agents and the log, no Restart or Retry', async () => {
    const page = await openWithOneTurn();
    await page.host(
      agentFailed('Copilot CLI', { kind: 'not_installed', message: 'copilot was not found on PATH.' }),
    );
    const banner = page.page.locator('.status-banner');
    assert.equal(await banner.locator('.error-title').innerText(), 'Agent not installed');
    assert.equal(await banner.locator('.error-message').innerText(), 'copilot was not found on PATH.');
    const buttons = banner.locator('.error-actions vscode-button');
    assert.deepEqual(await buttons.allTextContents(), ['Add Agent…', 'Check Agents', 'Show Agent Log']);
    await banner.locator('vscode-button', { hasText: 'Add Agent…' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'add_agent' });
  });

  it('agent_status error: "Check Agents" runs the agent doctor; a failed turn does not offer it', async () => {
    const page = await openWithOneTurn();
    await page.host(
      agentFailed('Copilot CLI', {
        kind: 'process_exited',
        message: 'The agent failed to start: spawn copilot ENOENT',
      }),
    );
    const banner = page.page.locator('.status-banner');
    const buttons = banner.locator('.error-actions vscode-button');
    assert.deepEqual(await buttons.allTextContents(), ['Restart', 'Check Agents', 'Show Agent Log']);
    assert.equal(await buttons.nth(1).getAttribute('secondary'), '', 'secondary beside Restart');
    await banner.locator('vscode-button', { hasText: 'Check Agents' }).click();
    assert.deepEqual((await page.posted()).at(-1), { type: 'check_agents' });

    await endFirstTurn(page, {
      status: 'failed',
      error: { kind: 'internal', message: 'Internal error', code: -32603 },
    });
    assert.equal(await page.page.locator('.turn-footer .agent-error').count(), 1);
    assert.equal(
      await page.page.locator('.turn-footer vscode-button', { hasText: 'Check Agents' }).count(),
      0,
    );
  });

  it('shows notices inline', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
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

  it("a failed turn's Details show the code and what the agent sent, collapsed until opened", async () => {
    const page = await openWithOneTurn();
    await endFirstTurn(page, {
      status: 'failed',
      error: { kind: 'internal', message: 'Upstream failed', code: -32603, data: HOSTILE_DATA },
    });
    const error = page.page.locator('[data-turn-id="t1"] .agent-error');
    const details = error.locator('.error-details');
    const header = details.locator('.disclosure-header');
    assert.equal(await header.innerText(), 'Details');
    assert.equal(await header.getAttribute('aria-expanded'), 'false');
    assert.equal(await details.locator('.error-data').isVisible(), false, 'Details start collapsed');

    await header.click();
    assert.equal(await header.getAttribute('aria-expanded'), 'true');
    const body = details.locator('.disclosure-body');
    assert.equal(await header.getAttribute('aria-controls'), await body.getAttribute('id'));
    assert.deepEqual(await details.locator('.error-facts dt').allTextContents(), ['Kind', 'Code']);
    assert.equal(await details.locator('.error-kind').textContent(), 'internal');
    assert.equal(await details.locator('.error-code').textContent(), '-32603 (Internal error)');
    const data = details.locator('.error-data');
    assert.equal(await data.textContent(), HOSTILE_DATA, 'the data is shown exactly, as text');
    assert.equal(await data.getAttribute('tabindex'), '0', 'long data scrolls with the keyboard');
    // Nothing the agent sent became markup.
    assert.equal(await data.locator('*').count(), 0);
    assert.equal(await page.page.evaluate(() => (window as { __xss?: number }).__xss), undefined);

    await header.click();
    assert.equal(await data.isVisible(), false, 'and closes again');
    await header.focus();
    await page.page.keyboard.press('Enter');
    assert.equal(await data.isVisible(), true, 'opens from the keyboard');
    page.assertClean();
  });

  it('the agent status banner has the same Details; an error without code or data has none', async () => {
    const page = await openWithOneTurn();
    await page.host(
      status({
        state: 'error',
        agentName: 'Gemini CLI',
        error: {
          kind: 'auth_required',
          message: 'Authentication required',
          code: -32000,
          data: '"GEMINI_API_KEY is not set"',
        },
      }),
    );
    const banner = page.page.locator('.status-banner');
    await banner.locator('.error-details .disclosure-header').click();
    assert.equal(await banner.locator('.error-code').textContent(), '-32000 (Authentication required)');
    assert.equal(await banner.locator('.error-data').textContent(), '"GEMINI_API_KEY is not set"');

    await endFirstTurn(page, {
      status: 'interrupted',
      error: { kind: 'process_exited', message: 'The agent exited with code 1.' },
    });
    const exited = page.page.locator('[data-turn-id="t1"] .agent-error');
    assert.match(await exited.innerText(), /Agent exited/);
    assert.equal(await exited.locator('.error-details').count(), 0);

    await page.host(
      events(
        started(turn('t2')),
        ended(turn('t2', { status: 'failed', error: { kind: 'internal', message: 'x', code: 7 } })),
      ),
    );
    const unknown = page.page.locator('[data-turn-id="t2"] .agent-error .error-details');
    await unknown.locator('.disclosure-header').click();
    assert.equal(await unknown.locator('.error-code').textContent(), '7', 'an unknown code is shown bare');
    assert.equal(await unknown.locator('.error-data').count(), 0, 'no data, no data part');
    page.assertClean();
  });

  it('looks right with Details open (screenshot)', async () => {
    const page = await chat.openShowing(
      snapshot({ entries: [message('user', 'e1', 'Summarise the open issues')], turns: [turn('t1')] }),
      { width: 420, height: 640 },
    );
    await endFirstTurn(page, {
      status: 'failed',
      error: {
        kind: 'rate_limited',
        message: 'Internal error: upstream returned 429',
        code: -32603,
        data: JSON.stringify(
          {
            status: 429,
            retryAfterSeconds: 30,
            error: { type: 'rate_limit_error', message: 'Too many requests' },
          },
          null,
          2,
        ),
      },
    });
    await page.host(UNKNOWN_MODE_ALERT);
    for (const header of await page.page.locator('.error-details .disclosure-header').all()) {
      await header.click();
    }
    await page.screenshot('error-details');
    page.assertClean();
  });

  it("an alert for a failed action has the agent's Details; a plain one has none", async () => {
    const page = await chat.openShowing(snapshot());
    await page.host(UNKNOWN_MODE_ALERT);
    await page.host({ type: 'error', message: 'A turn is already running; wait for it or press Stop.' });
    const alerts = page.page.locator('.alerts .alert');
    assert.equal(await alerts.count(), 2);
    const first = alerts.nth(0);
    assert.equal(await first.locator('.alert-message').textContent(), 'Invalid params: unknown mode warp');
    await first.locator('.error-details .disclosure-header').click();
    assert.equal(await first.locator('.error-code').textContent(), '-32602 (Invalid params)');
    assert.equal(await first.locator('.error-data').textContent(), '"modeId"');
    assert.equal(await alerts.nth(1).locator('.error-details').count(), 0);
    page.assertClean();
  });
});
