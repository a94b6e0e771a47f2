/**
 * The hooks of the suites that run the real claude-code-acp adapter as an agent of the extension
 * (test/integration/realAdapter*.test.ts): the scripted Anthropic stub and the adapter's temporary HOME
 * before the suite, the adapter configured in `acpAgents.agents` with permissions asked inline; after each
 * test no turn or review left waiting and the editors closed; after the suite the adapter stopped and
 * settings, chats and rules as before. Call it inside a `describe`, which reads the fields in its tests.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AcpAgentsApi } from '../../../src/extension';
import type { ThreadEntryMessage } from '../../../src/protocol';
import { startAnthropicStub, type AnthropicStub } from '../../fixtures/llm/anthropicStub';
import { offlineClaudeEnv } from '../../fixtures/llm/offlineClaudeEnv';
import { freshChat, toolCallsOf, type RunningTurn } from './activeChat';
import { DEMO_AGENT_ID, getApi } from './extensionApi';
import { Settings } from './settings';
import { eventually } from './waits';
import { closeAllEditors } from './workspace';
import { adapterPids, adapterScript } from './realAdapter';

/** The name the adapter is configured under. */
export const REAL_AGENT_NAME = 'Claude Code (test)';

export type ToolCallMessage = Extract<ThreadEntryMessage, { kind: 'tool_call' }>;

/** What the hooks set up, read in the suite's tests once `before` ran. */
export class RealAdapterSuite {
  api!: AcpAgentsApi;
  stub!: AnthropicStub;
  /** The adapter's entry point (its processes are found by it). */
  script = '';
  agentId = '';
  /** Step durations in ms, printed after the suite. */
  readonly timings: Record<string, number> = {};
  /** Chats this suite opened, deleted at the end. */
  readonly chats: string[] = [];

  /** A new chat with the adapter: starts it the first time, then opens a session (session/new). */
  async openChat(): Promise<string> {
    const started = Date.now();
    const firstStart = adapterPids(this.script).length === 0;
    await this.api.chat.newChat();
    this.timings[firstStart ? 'startAndSessionNew' : 'sessionNew'] = Date.now() - started;
    const view = this.api.chat.viewState();
    assert.ok(view.chat, 'no active chat');
    this.chats.push(view.chat.chatId);
    assert.equal(view.selectedAgentId, this.agentId);
    assert.equal(
      this.api.chat.currentStatus.state,
      'ready',
      `the adapter did not connect: ${JSON.stringify(this.api.chat.currentStatus)}`,
    );
    // The name it was added under, as the picker shows it (the adapter calls itself "Claude Code").
    assert.equal(this.api.chat.currentStatus.agentName, REAL_AGENT_NAME);
    assert.equal(adapterPids(this.script).length, 1, 'exactly one adapter process runs');
    return view.chat.chatId;
  }

  /** Waits until a tool call of the turn asks permission inline, and returns it. */
  pendingPermission(running: RunningTurn): Promise<ToolCallMessage> {
    return eventually(
      'the adapter to ask permission',
      () =>
        toolCallsOf(this.api, running.turnId).find((entry) => entry.permission?.status === 'pending') ??
        false,
      60_000,
    );
  }

  /** Answers the pending permission the way the chat view's inline card does. */
  async answer(call: ToolCallMessage, optionId: string): Promise<void> {
    assert.ok(call.permission);
    await this.api.chat.handleMessage({ type: 'answer_permission', key: call.permission.key, optionId });
  }

  /** Ends the adapter processes (by pid, with their process group) and waits until they are gone. */
  async stopAdapter(): Promise<void> {
    if (!this.script) {
      return;
    }
    for (const pid of adapterPids(this.script)) {
      try {
        // The extension starts each agent in its own process group: this reaches Claude Code's children too.
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await eventually('the adapter to exit', () => adapterPids(this.script).length === 0, 15_000);
  }
}

export function useRealAdapter(name: string): RealAdapterSuite {
  const suite = new RealAdapterSuite();
  /** The adapter's temporary HOME (and CLAUDE_CONFIG_DIR inside it). */
  let home: string | undefined;
  const settings = new Settings();
  /** This VS Code saves dirty editors after a second by default; an undone edit must stay unsaved. */
  const fileSettings = new Settings('files');

  before(async () => {
    suite.api = await getApi();
    suite.script = adapterScript();
    suite.stub = await startAnthropicStub({ kind: 'text', text: 'Hello.' }, { lifetimeMs: 10 * 60_000 });
    home = mkdtempSync(path.join(tmpdir(), 'acp-it-claude-'));
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    // No remembered "always" answer may skip the permission prompt.
    await suite.api.rules.clear();
    await settings.set('edits.review', 'auto');
    await settings.set('permissions.ask', 'inline');
    await fileSettings.set('autoSave', 'off');
    await settings.set('agents', [
      {
        name: REAL_AGENT_NAME,
        // The extension host's own runtime: Node under code-server, Electron (as Node) in desktop VS Code.
        command: process.execPath,
        args: [suite.script],
        env: {
          ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {}),
          ...offlineClaudeEnv(home, suite.stub.url),
        },
      },
    ]);
    const agent = await eventually('the adapter in the agent list', () =>
      suite.api.catalog.agents.agents.find((candidate) => candidate.label === REAL_AGENT_NAME),
    );
    suite.agentId = agent.id;
    assert.equal(suite.agentId, 'agent:claude-code-test');
    assert.deepEqual(suite.api.catalog.agents.errors, []);
  });

  afterEach(async () => {
    // A turn a failed test left waiting (on its permission or an edit review) ends here, not in the next test.
    for (const review of suite.api.writeReviews.pending()) {
      suite.api.writeReviews.answer(review.id, 'undo');
    }
    await suite.api.chat.cancel().catch(() => {});
    await closeAllEditors();
  });

  after(async () => {
    // Also after a failure: no turn left waiting, the adapter stopped, settings, chats and files as before.
    const { api } = suite;
    await api?.chat.cancel().catch(() => {});
    await suite.stopAdapter();
    await settings.restore();
    await fileSettings.restore();
    if (api) {
      await eventually('the demo agent to be offered again', () =>
        api.catalog.agents.agents.some((agent) => agent.id === DEMO_AGENT_ID),
      );
      await freshChat(api);
      for (const chatId of suite.chats) {
        await api.chat.deleteChat(chatId).catch(() => {});
      }
      await api.rules.clear();
    }
    await suite.stub?.close();
    if (home) {
      rmSync(home, { recursive: true, force: true });
    }
    console.log(`      [${name}] timings in ms: ${JSON.stringify(suite.timings)}`);
  });

  return suite;
}
