import assert from 'node:assert/strict';
import {
  added,
  ended,
  events,
  message,
  sessionState,
  snapshot,
  status,
  toolCall,
  turn,
} from './support/builders';
import { useChatPages } from './support/suite';

/** Each payload sets window.__xss if it ever runs. */
const CORPUS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"><circle r=1 /></svg>',
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '"><iframe srcdoc="<script>parent.__xss=1</script>">',
  "'><img src=x onerror=window.__xss=1>",
  '<a href="javascript:window.__xss=1">raw anchor</a>',
  '[md link](javascript:window.__xss=1)',
  '[spaced](  javascript:window.__xss=1 )',
  '[entity](&#106;avascript:window.__xss=1)',
  '[vb](vbscript:msgbox(1))',
  '[data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==)',
  '<javascript:window.__xss=1>',
  '![img](x" onerror="window.__xss=1)',
  '![data img](data:image/svg+xml,<svg onload=window.__xss=1>)',
  '<details open ontoggle="window.__xss=1">x</details>',
  '<style>body { display: none }</style>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>',
  '```"><img src=x onerror=window.__xss=1>\ncode\n```',
  '<object data="javascript:window.__xss=1"></object><embed src="javascript:window.__xss=1">',
].join('\n\n');

const FORBIDDEN =
  'script, iframe, img, svg, object, embed, style, math, details, [onerror], [onload], [ontoggle], [srcdoc]';

/**
 * Active elements in the view's own DOM. querySelectorAll does not enter the shadow roots of the
 * vscode-elements components (their chevron is an <svg>); agent text only reaches those as text.
 */
const activeElements = (selector: string): string[] =>
  Array.from(document.querySelectorAll(`#app :is(${selector})`), (element) => element.outerHTML);

describe('webview: untrusted agent output stays inert', () => {
  const chat = useChatPages();

  it('an XSS corpus in every place agent data reaches renders as text', async () => {
    const page = await chat.openShowing(
      snapshot(
        {
          entries: [
            message('user', 'u1', CORPUS, {
              attachments: [
                {
                  type: 'resource_link',
                  uri: 'javascript:window.__xss=1',
                  name: '<img src=x onerror=window.__xss=1>',
                },
              ],
            }),
            message('thought', 'th', CORPUS),
            message('agent', 'a1', CORPUS),
            toolCall('tc', {
              title: '<img src=x onerror=window.__xss=1>"><iframe>',
              status: 'in_progress',
              locations: [
                { path: 'javascript:window.__xss=1', line: 1 },
                { path: '<svg onload=window.__xss=1>' },
              ],
              content: [
                { type: 'text', text: CORPUS },
                {
                  type: 'diff',
                  path: '<img src=x onerror=window.__xss=1>',
                  oldText: CORPUS,
                  newText: `${CORPUS}\nmore`,
                },
                { type: 'terminal', terminalId: '<script>' },
              ],
              permission: {
                key: 'k',
                status: 'pending',
                options: [
                  { optionId: '<x>', name: '<img src=x onerror=window.__xss=1>', kind: 'allow_once' },
                ],
              },
            }),
          ],
          turns: [turn('t1')],
          state: sessionState({
            title: '<img src=x onerror=window.__xss=1>',
            modes: { currentModeId: 'm', available: [{ id: 'm', name: '<script>window.__xss=1</script>' }] },
            commands: [
              { name: '<img src=x onerror=window.__xss=1>', description: '<svg onload=window.__xss=1>' },
            ],
            plan: [{ content: '<img src=x onerror=window.__xss=1>', priority: 'high', status: 'pending' }],
          }),
        },
        {
          agents: [{ id: 'x', label: '<img src=x onerror=window.__xss=1>' }],
          selectedAgentId: 'x',
          status: { state: 'ready', agentName: '<script>window.__xss=1</script>' },
        },
      ),
    );
    await page.host({
      type: 'terminal_output',
      terminal: { terminalId: '<script>', output: CORPUS, truncated: false },
    });
    await page.host(
      events(
        {
          type: 'notice',
          notice: { severity: 'error', title: '<img src=x onerror=window.__xss=1>', description: CORPUS },
        },
        ended(
          turn('t1', {
            status: 'interrupted',
            error: { kind: 'process_exited', message: '<img src=x onerror=window.__xss=1>' },
            stderrTail: [CORPUS],
            checkpointId: '<script>window.__xss=1</script>',
            restoredAt: 1_700_000_100_000,
            changes: {
              live: false,
              coverage: 'limited',
              files: [
                {
                  path: '/w/<img src=x onerror="window.__xss=1">.ts',
                  relativePath: '<svg onload=window.__xss=1>/<img src=x onerror="window.__xss=1">.ts',
                  kind: 'created',
                  added: 1,
                  removed: 0,
                  decision: 'pending',
                },
                {
                  path: CORPUS,
                  relativePath: CORPUS,
                  kind: 'modified',
                  added: 2,
                  removed: 1,
                  decision: 'kept',
                },
              ],
            },
          }),
        ),
      ),
    );
    await page.host(
      status({
        state: 'error',
        error: { kind: 'auth_required', message: CORPUS, stderrTail: [CORPUS] },
        authMethods: [{ id: 'a', name: '<img src=x onerror=window.__xss=1>' }],
      }),
    );
    await page.host({ type: 'error', message: CORPUS });
    await page.page.locator('.composer-input').pressSequentially('/');

    assert.deepEqual(
      await page.page.evaluate(activeElements, FORBIDDEN),
      [],
      'no active elements from agent text',
    );
    // Every link left has a web or file target (or none); none is a script URL.
    const hrefs = await page.page
      .locator('#app a[href]')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      // eslint-disable-next-line no-control-regex -- browsers ignore these inside a scheme
      assert.doesNotMatch(href.replace(/[\s\u0000-\u001f]/g, ''), /^(javascript|vbscript|data):/i, href);
    }
    // Clicking everything clickable in the transcript runs nothing and navigates nowhere.
    const links = page.page.locator('.transcript a');
    for (let i = 0; i < (await links.count()); i++) {
      await links.nth(i).dispatchEvent('click');
    }
    await page.page.locator('.transcript .chip').first().click();
    for (const posted of await page.posted()) {
      if (posted.type === 'open_url') {
        assert.match(posted.url, /^https?:/);
      }
    }
    assert.equal(await page.page.evaluate(() => window.__xss), undefined);
    assert.ok(page.page.url().endsWith('/chat.html?theme=dark'));
    // The payloads are visible as text (in view: blocks off screen skip rendering, and innerText with it).
    await page.page.locator('[data-entry-id="a1"] .md-block').first().scrollIntoViewIfNeeded();
    assert.match(
      await page.page.locator('[data-entry-id="a1"]').innerText(),
      /<script>window.__xss=1<\/script>/,
    );
    assert.equal(
      await page.page.locator('.session-title').textContent(),
      '<img src=x onerror=window.__xss=1>',
    );
    // File paths in the change card are text too, and its buttons post them back unchanged.
    const payloadRow = page.page.locator('.change-row').first();
    assert.equal(
      await payloadRow.locator('.change-name').textContent(),
      '<img src=x onerror="window.__xss=1">.ts',
    );
    assert.equal(await payloadRow.locator('.change-folder').textContent(), '<svg onload=window.__xss=1>');
    await page.clearPosted();
    await payloadRow.locator('.change-path').click();
    await page.page.locator('.restore-checkpoint').click();
    assert.deepEqual(await page.posted(), [
      {
        type: 'turn_changes',
        turnId: 't1',
        action: 'diff',
        path: '/w/<img src=x onerror="window.__xss=1">.ts',
      },
      { type: 'restore_checkpoint', turnId: 't1' },
    ]);
    assert.deepEqual(await page.page.evaluate(activeElements, FORBIDDEN), []);
    assert.equal(await page.page.evaluate(() => window.__xss), undefined);
  });

  it('streamed payloads split across chunks stay inert too', async () => {
    const page = await chat.openShowing(snapshot({ turns: [turn('t1')] }));
    await page.host(events(added(message('agent', 'a1', ''))));
    for (let at = 0; at < CORPUS.length; at += 7) {
      await page.host(events({ type: 'text_appended', entryId: 'a1', text: CORPUS.slice(at, at + 7) }));
    }
    assert.deepEqual(await page.page.evaluate(activeElements, FORBIDDEN), []);
    assert.equal(await page.page.evaluate(() => window.__xss), undefined);
  });
});
