import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Conversation } from '../../src/chat/conversation';
import { ChatJournal } from '../../src/core/journal/journal';
import { RecordingLogger, useTestAgents } from './support/testAgent';

/** A real agent takes seconds to open a session (Claude Code: ~2 s, more on a busy machine). */
const SLOW_OPENING = { TEST_AGENT_SESSION_DELAY_MS: '400' };

/**
 * An empty chat whose session is still opening when it changes agent or folder (picked in its header,
 * moved into a worktree): the next prompt must go to a session of the new agent, in the new folder —
 * never to the one that was opening for the old (seen with the real claude-code-acp adapter: a worktree
 * chat's prompt went to a session opened in the main folder, and a chat's to the agent it had before).
 */
describe('an empty chat changing agent or folder while its session opens (test agents over stdio)', () => {
  const agents = useTestAgents();
  let dir: string;
  let chat: Conversation;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-switch-'));
    chat = Conversation.create('c1', 'first', { journal: new ChatJournal(dir), logger: new RecordingLogger() }).chat;
  });
  afterEach(() => {
    chat.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moved into another folder: the prompt gets a session there, the one opening in the old folder is abandoned', async () => {
    const agent = await agents.start({ env: SLOW_OPENING });
    const worktree = path.join(dir, 'worktree');
    mkdirSync(worktree);
    const abandoned = assert.rejects(chat.ensureSession(agent.client, { cwd: agent.dir }), { kind: 'cancelled' });
    assert.equal(chat.changeAgent('first', worktree), true);
    const session = await chat.ensureSession(agent.client, { cwd: worktree });
    assert.equal(session.cwd, worktree);
    await abandoned;
    assert.equal(chat.currentSession, session);
    assert.equal(chat.agentSessionId, session.id);
  });

  it('given another agent: the prompt gets a session of that agent, not the one opening on the first', async () => {
    const first = await agents.start({ env: SLOW_OPENING });
    const second = await agents.start();
    const abandoned = assert.rejects(chat.ensureSession(first.client, { cwd: first.dir }), { kind: 'cancelled' });
    assert.equal(chat.changeAgent('second'), true);
    const session = await chat.ensureSession(second.client, { cwd: second.dir });
    assert.equal(second.client.session(session.id), session);
    await abandoned;
    assert.equal(chat.currentSession, session);
    assert.equal(chat.agentId, 'second');
  });

  it('an opening answered as the chat changes is not taken: the next prompt opens its own session', async () => {
    const agent = await agents.start();
    const worktree = path.join(dir, 'worktree');
    mkdirSync(worktree);
    // Answered at once: it resolves right after the change, before the abandonment could reach the agent.
    const opening = chat.ensureSession(agent.client, { cwd: agent.dir });
    await new Promise((resolve) => setImmediate(resolve));
    chat.changeAgent('first', worktree);
    await opening.then(
      () => undefined,
      () => undefined,
    );
    assert.equal(chat.currentSession, undefined, 'no session of the old folder was taken');
    const session = await chat.ensureSession(agent.client, { cwd: worktree });
    assert.equal(session.cwd, worktree);
  });
});
