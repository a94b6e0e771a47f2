import { strict as assert } from 'node:assert';
import { silentLogger } from '../../../src/core/ports';
import {
  ElicitationBroker,
  MAX_WAITING_ELICITATIONS,
} from '../../../src/features/elicitation/core/elicitationBroker';
import { compileAgentPattern } from '../../../src/features/elicitation/core/agentPattern';
import { ElicitationNotice } from '../../../src/features/elicitation/vscode/elicitationNotice';
import type { UserPrompts } from '../../../src/vscode/userPrompts';

/** VS Code's notifications, which cannot run here: records each and lets the test click or see it dismissed. */
class RecordingPrompts implements UserPrompts {
  readonly notices: { message: string; signal?: AbortSignal; click(choice: string | undefined): void }[] = [];
  async modal(): Promise<string | undefined> {
    throw new Error('no dialog is expected');
  }
  notify(message: string, _choices: readonly string[], signal?: AbortSignal): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.notices.push({ message, ...(signal ? { signal } : {}), click: resolve });
      signal?.addEventListener('abort', () => resolve(undefined), { once: true });
    });
  }
  async secret(): Promise<string | undefined> {
    return undefined;
  }
  async text(): Promise<string | undefined> {
    return undefined;
  }
}

const FORM = {
  sessionId: 's1',
  mode: 'form' as const,
  message: 'Which region?',
  requestedSchema: { type: 'object' as const, properties: { region: { type: 'string' as const } } },
};

/** A broker and its notice for a chat that is never on screen. */
function hiddenChat(): { broker: ElicitationBroker; prompts: RecordingPrompts; notice: ElicitationNotice } {
  const broker = new ElicitationBroker(silentLogger, compileAgentPattern);
  const prompts = new RecordingPrompts();
  const notice = new ElicitationNotice(
    broker,
    prompts,
    { chatVisible: () => false, reveal: async () => {} },
    silentLogger,
  );
  return { broker, prompts, notice };
}

describe('a question for a hidden chat (the permission rule)', () => {
  it('is announced only when its chat is not on screen, and "Show Chat" reveals it', async () => {
    const broker = new ElicitationBroker(silentLogger, compileAgentPattern);
    const prompts = new RecordingPrompts();
    let visible = true;
    const revealed: (string | undefined)[] = [];
    const notice = new ElicitationNotice(
      broker,
      prompts,
      { chatVisible: () => visible, reveal: async (q) => void revealed.push(q.sessionId) },
      silentLogger,
    );
    const onScreen = broker.request(
      { agentId: 'a', sessionId: 's1', params: FORM },
      new AbortController().signal,
    );
    assert.equal(prompts.notices.length, 0, 'a visible chat shows the form inline, without a notification');

    visible = false;
    const hidden = broker.request(
      { agentId: 'a', sessionId: 's1', params: FORM },
      new AbortController().signal,
    );
    assert.equal(prompts.notices.length, 1);
    assert.match(prompts.notices[0]?.message ?? '', /^The agent asks for input: Which region\?/);
    prompts.notices[0]?.click('Show Chat');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(revealed, ['s1']);

    broker.cancelAll();
    assert.deepEqual(await Promise.all([onScreen, hidden]), [{ action: 'cancel' }, { action: 'cancel' }]);
    notice.dispose();
    broker.dispose();
  });

  it('takes the notification away when the question is settled elsewhere', () => {
    const { broker, prompts, notice } = hiddenChat();
    const stop = new AbortController();
    void broker.request({ agentId: 'a', sessionId: 's1', params: FORM }, stop.signal);
    assert.equal(prompts.notices[0]?.signal?.aborted, false);
    stop.abort(); // Stop: the question is void
    assert.equal(prompts.notices[0]?.signal?.aborted, true);
    notice.dispose();
    broker.dispose();
  });

  it('is one notification for many questions of a session, gone once none is open', () => {
    const { broker, prompts, notice } = hiddenChat();
    // 20 questions of s1: the first few wait, the broker refuses the rest.
    const refusals: string[] = [];
    for (let n = 0; n < 20; n++) {
      try {
        void broker.request({ agentId: 'a', sessionId: 's1', params: FORM }, new AbortController().signal);
      } catch (error) {
        refusals.push((error as Error).message);
      }
    }
    void broker.request({ agentId: 'a', sessionId: 's2', params: FORM }, new AbortController().signal);
    assert.equal(prompts.notices.length, 2, 'one for s1 (however many it asks), one for s2');
    const [first, second] = broker.pending('s1');
    broker.answer(first?.elicitation.key ?? '', { action: 'decline' });
    assert.equal(prompts.notices[0]?.signal?.aborted, false, 'still asking');
    broker.cancelAll('s1');
    assert.equal(second && broker.find(second.elicitation.key), undefined);
    assert.equal(prompts.notices[0]?.signal?.aborted, true, 'no question of s1 is open');
    assert.equal(prompts.notices[1]?.signal?.aborted, false, "s2's stays");
    assert.equal(refusals.length, 20 - MAX_WAITING_ELICITATIONS);
    notice.dispose();
    broker.dispose();
  });
});
