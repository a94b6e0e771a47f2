/**
 * Issue 11 (items 4–6): MCP servers reach the agent's session/new, new problems after a turn are offered
 * back ("Fix N new problems") and sent as the next prompt, and the chat opens in an editor tab.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import {
  activeThread,
  allTabs,
  ask,
  closeAllEditors,
  eventually,
  freshChat,
  getApi,
  installPrompts,
  lastTurn,
  replyOf,
  Settings,
  showChatView,
  TempFolder,
  workspaceRoot,
} from './support/harness';
import { requestScreenshot } from './support/screenshot';

describe('MCP servers, Problems offered back, chats in editor tabs (issue 11)', () => {
  let api: AcpAgentsApi;
  const settings = new Settings();

  before(async () => {
    api = await getApi();
    await showChatView();
  });

  after(async () => {
    await settings.restore();
    await api.mcp.store('IT_MCP_TOKEN', '');
    await closeAllEditors();
  });

  it('passes acpAgents.mcpServers to session/new with secrets from SecretStorage, as the agent allows', async () => {
    await settings.set('mcpServers', [
      {
        name: 'files',
        command: 'mcp-files',
        args: ['--root', '.'],
        env: [{ name: 'TOKEN', value: 'Bearer ${secret:IT_MCP_TOKEN}' }],
      },
      { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'X-Test', value: '1' }] },
      { type: 'sse', name: 'events', url: 'http://127.0.0.1:9/sse' },
      { name: 'broken' },
    ]);
    await api.mcp.store('IT_MCP_TOKEN', 'it-secret-value');
    await freshChat(api);
    const { reply } = await ask(api, 'mcp');
    const match = /^MCP servers: (.*)$/s.exec(reply);
    assert.ok(match, `unexpected reply ${reply}`);
    assert.deepEqual(JSON.parse(match[1] as string), [
      {
        name: 'files',
        command: 'mcp-files',
        args: ['--root', '.'],
        // The agent got the value; its reply quoting it back is shown scrubbed (issue 19): the marker
        // replaces exactly the stored value, nothing else.
        env: [{ name: 'TOKEN', value: 'Bearer ‹secret IT_MCP_TOKEN›' }],
      },
      { type: 'http', name: 'web', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'X-Test', value: '1' }] },
    ]);
    // The setting keeps the reference, never the value.
    const stored = JSON.stringify(vscode.workspace.getConfiguration('acpAgents').get('mcpServers'));
    assert.ok(stored.includes('${secret:IT_MCP_TOKEN}') && !stored.includes('it-secret-value'));

    // Without the secret, the server that needs it is left out (and the log says so), the others still go.
    await api.mcp.store('IT_MCP_TOKEN', '');
    await freshChat(api);
    const again = await ask(api, 'mcp');
    const names = (
      JSON.parse(/^MCP servers: (.*)$/s.exec(again.reply)?.[1] ?? 'null') as { name: string }[]
    ).map((server) => server.name);
    assert.deepEqual(names, ['web']);
    await settings.restore();
  });

  it("adds the servers of VS Code's own .vscode/mcp.json (variables filled, ${input:…} from the MCP secrets)", async () => {
    const dir = path.join(workspaceRoot(), '.vscode');
    const file = path.join(dir, 'mcp.json');
    assert.ok(!existsSync(file), 'the sample workspace has no mcp.json of its own');
    const createdDir = !existsSync(dir);
    const prompts = installPrompts(api);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(
        file,
        `{
          // as VS Code writes it
          "inputs": [{ "id": "it-key", "type": "promptString", "password": true }],
          "servers": {
            "vscode-local": { "command": "node", "args": ["\${workspaceFolder}/srv.js"], "env": { "KEY": "\${input:it-key}" } },
          },
        }`,
      );
      await api.mcp.store('it-key', 'from-secret-storage');
      // A server the workspace defines needs the user's consent first (issue 19).
      prompts.answerModal('Allow');
      await freshChat(api);
      const { reply } = await ask(api, 'mcp');
      const servers = JSON.parse(/^MCP servers: (.*)$/s.exec(reply)?.[1] ?? 'null') as unknown;
      assert.deepEqual(servers, [
        {
          name: 'vscode-local',
          command: 'node',
          args: [`${workspaceRoot()}/srv.js`],
          env: [{ name: 'KEY', value: '‹secret it-key›' }], // as the agent quoted it back, scrubbed
        },
      ]);
    } finally {
      prompts.restore();
      await api.mcp.consent.revokeAll();
      await api.mcp.store('it-key', '');
      rmSync(createdDir ? dir : file, { recursive: true, force: true });
    }
  });

  it('offers the new TypeScript errors in a file the turn wrote, and sends them as the next prompt', async function () {
    // The TypeScript server starts on the first TypeScript file: slow on a busy machine.
    this.timeout(180_000);
    const folder = new TempFolder('problems');
    try {
      // Warm up the TypeScript server: it reports on an open document once it runs.
      const warm = folder.file('warm.ts');
      writeFileSync(warm, "const warm: number = 'not a number';\n");
      await vscode.window.showTextDocument(vscode.Uri.file(warm));
      const typescript = vscode.extensions.getExtension('vscode.typescript-language-features');
      await eventually(
        `the TypeScript server to report on an open file (extension ${typescript ? (typescript.isActive ? 'active' : 'inactive') : 'missing'})`,
        () => vscode.languages.getDiagnostics(vscode.Uri.file(warm)).length > 0,
        120_000,
      );
      await closeAllEditors();
      const target = folder.file('broken.ts');
      writeFileSync(target, 'export const fine: number = 1;\n');
      // TypeScript checks only files open in a tab (unless project-wide diagnostics are on): the user has it open.
      await vscode.window.showTextDocument(vscode.Uri.file(target));
      const relative = path.relative(workspaceRoot(), target);
      await freshChat(api);
      const { turn } = await ask(
        api,
        `own write ${relative} export const fine: number = 1;\\nexport const broken: number = 'oops';\\n`,
      );
      assert.equal(turn.status, 'completed');
      assert.match(readFileSync(target, 'utf8'), /broken: number = 'oops'/);
      const offer = await eventually(
        'the "Fix N new problems" offer',
        () => api.chat.viewState().problemsOffer,
        30_000,
      );
      assert.equal(offer.turnId, turn.id);
      assert.ok(offer.problems.length >= 1);
      const [problem] = offer.problems;
      assert.equal(problem?.path, relative.split(path.sep).join('/'));
      assert.equal(problem?.line, 2);
      assert.equal(problem?.severity, 'error');
      assert.equal(problem?.source, 'ts');
      assert.match(problem?.message ?? '', /not assignable to type 'number'/);
      assert.ok(
        offer.problems.every((p) => !p.path.endsWith('warm.ts')),
        'problems of files the turn did not change are not offered',
      );

      await api.chat.handleMessage({ type: 'fix_problems', turnId: offer.turnId });
      const fixTurn = lastTurn(api);
      assert.notEqual(fixTurn.id, turn.id, 'a new turn was sent');
      const reply = await eventually('the echoed problems prompt', () => {
        const text = replyOf(api, lastTurn(api).id);
        return text.includes('not assignable') && text;
      });
      assert.match(reply, /Fix this new problem that appeared in the files you changed:/);
      assert.ok(reply.includes(`${relative.split(path.sep).join('/')}:2:`), reply);
      assert.match(reply, /error: Type 'string' is not assignable to type 'number'\. \(ts 2322\)/);
      assert.equal(api.chat.viewState().problemsOffer, undefined, 'the offer is taken up');
    } finally {
      await closeAllEditors();
      folder.dispose();
    }
  });

  it('opens the sidebar’s chat in an editor tab that renders it, titled by the chat; run again, it reveals that tab', async () => {
    await freshChat(api);
    await ask(api, 'hello from the sidebar');
    await vscode.commands.executeCommand('acpAgents.openChatInEditor');
    const chatTabs = (): vscode.Tab[] =>
      allTabs().filter(
        (tab) =>
          tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('acpAgents.chatPanel'),
      );
    await eventually('the chat tab', () => chatTabs().length === 1);
    await eventually('the tab titled by its chat', () => chatTabs()[0]?.label === 'hello from the sidebar');
    await eventually('the tab to run the chat webview', () => api.panels.isReady, 30_000);
    await vscode.commands.executeCommand('acpAgents.openChatInEditor');
    await eventually('still one chat tab', () => chatTabs().length === 1);
    // The tab's webview said `ready` (api.panels.isReady above); the picture waits for the chat text.
    await requestScreenshot('vscode-chat-editor-tab', { waitForText: 'hello from the sidebar' });
    assert.ok(activeThread(api).entries.some((entry) => entry.kind === 'user'));
    api.panels.close();
    await eventually('the tab closed', () => chatTabs().length === 0 && !api.panels.isOpen);
  });
});
