/**
 * The hooks the chat suites share: the extension's API before the suite; scripted prompts and a fresh
 * chat with the default (demo) agent before each test; afterwards the prompts and any changed settings
 * put back. Call it inside a `describe`, which reads the fields in its tests.
 */
import type { AcpAgentsApi } from '../../../src/extension';
import type { ThreadSnapshotMessage } from '../../../src/protocol';
import {
  activeChatId,
  activeThread,
  ask,
  begin,
  freshChat,
  replyOf,
  toolCallsOf,
  transcript,
  type RunningTurn,
  type TurnResult,
} from './activeChat';
import { hideChatView, showChatView } from './chatView';
import { getApi } from './extensionApi';
import { installPrompts, type ScriptedPrompts } from './prompts';
import { Settings } from './settings';
import { closeAllEditors } from './workspace';

export interface DemoChatOptions {
  /** Open the chat view before the suite, so permission requests are answered inline. */
  readonly chatView?: boolean;
  /** Hide the chat view before each test, so permission requests ask in a modal dialog. */
  readonly hideChatView?: boolean;
  /** Forget remembered permission answers before and after each test. */
  readonly clearRules?: boolean;
  /** Revert and close every editor after each test. */
  readonly closeEditors?: boolean;
}

/**
 * What the hooks set up: `api` from the suite's start, `prompts` fresh for each test; and the active
 * chat's helpers (./activeChat) on that API.
 */
export class DemoChats {
  api!: AcpAgentsApi;
  prompts!: ScriptedPrompts & { restore(): void };
  /** Settings a test changes, restored after it. */
  readonly settings = new Settings();

  thread(): ThreadSnapshotMessage {
    return activeThread(this.api);
  }

  chatId(): string {
    return activeChatId(this.api);
  }

  replyOf(turnId: string): string {
    return replyOf(this.api, turnId);
  }

  toolCallsOf(turnId: string): ReturnType<typeof toolCallsOf> {
    return toolCallsOf(this.api, turnId);
  }

  transcript(): Array<[string, string]> {
    return transcript(this.api);
  }

  ask(text: string): Promise<TurnResult> {
    return ask(this.api, text);
  }

  begin(text: string): Promise<RunningTurn> {
    return begin(this.api, text);
  }

  /** Answers a pending permission request in the chat, as its buttons do. */
  answerPermission(key: string, optionId: string): Promise<void> {
    return this.api.chat.handleMessage({ type: 'answer_permission', key, optionId });
  }

  freshChat(): Promise<string> {
    return freshChat(this.api);
  }
}

export function useDemoChats(options: DemoChatOptions = {}): DemoChats {
  const suite = new DemoChats();
  before(async () => {
    suite.api = await getApi();
    if (options.chatView) {
      await showChatView();
    }
  });
  beforeEach(async () => {
    if (options.hideChatView) {
      await hideChatView();
    }
    suite.prompts = installPrompts(suite.api);
    if (options.clearRules) {
      await suite.api.rules.clear();
    }
    await suite.freshChat();
  });
  afterEach(async () => {
    suite.prompts.restore();
    if (options.clearRules) {
      await suite.api.rules.clear();
    }
    await suite.settings.restore();
    if (options.closeEditors) {
      await closeAllEditors();
    }
  });
  return suite;
}
