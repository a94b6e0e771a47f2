/**
 * The hooks the chat suites share: the extension's API before the suite; scripted prompts and a fresh
 * chat with the default (demo) agent before each test; afterwards the prompts and any changed settings
 * put back. Call it inside a `describe`, which reads the fields in its tests.
 */
import type { AcpAgentsApi } from '../../../src/extension';
import { freshChat } from './activeChat';
import { showChatView } from './chatView';
import { getApi } from './extensionApi';
import { installPrompts, type ScriptedPrompts } from './prompts';
import { Settings } from './settings';
import { closeAllEditors } from './workspace';

export interface DemoChatOptions {
  /** Open the chat view before the suite, so permission requests are answered inline. */
  readonly chatView?: boolean;
  /** Forget remembered permission answers before each test. */
  readonly clearRules?: boolean;
  /** Revert and close every editor after each test. */
  readonly closeEditors?: boolean;
}

/** What the hooks set up: `api` from the suite's start, `prompts` fresh for each test. */
export class DemoChats {
  api!: AcpAgentsApi;
  prompts!: ScriptedPrompts & { restore(): void };
  /** Settings a test changes, restored after it. */
  readonly settings = new Settings();
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
    suite.prompts = installPrompts(suite.api);
    if (options.clearRules) {
      await suite.api.rules.clear();
    }
    await freshChat(suite.api);
  });
  afterEach(async () => {
    suite.prompts.restore();
    await suite.settings.restore();
    if (options.closeEditors) {
      await closeAllEditors();
    }
  });
  return suite;
}
