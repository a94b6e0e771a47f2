import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { useTestAgents } from './support/testAgent';

describe('multi-root: the other workspace folders as additionalDirectories', () => {
  const agents = useTestAgents();

  function folders(dir: string): string[] {
    const second = path.join(dir, 'second');
    const third = path.join(dir, 'third');
    mkdirSync(second);
    mkdirSync(third);
    return [second, third];
  }

  it('gives an agent that takes them every other folder on new and resume (echoed by session/list)', async () => {
    const agent = await agents.start();
    const others = folders(agent.dir);
    const session = await agent.client.newSession({ cwd: agent.dir, additionalDirectories: others });
    let listed = await agent.client.listSessions();
    assert.deepEqual(
      listed.sessions.map((info) => [info.sessionId, info.cwd, info.additionalDirectories]),
      [[session.id, agent.dir, others]],
    );
    // The cwd itself is never repeated as an additional root; a resume sends the roots of now.
    await agent.client.resumeSession(session.id, {
      cwd: agent.dir,
      additionalDirectories: [agent.dir, others[1] as string],
    });
    listed = await agent.client.listSessions();
    assert.deepEqual(listed.sessions[0]?.additionalDirectories, [others[1]]);
  });

  it('gives an agent without the capability the cwd alone, and says so in the log once', async () => {
    const agent = await agents.start({
      env: { TEST_AGENT_MINIMAL: '1' },
      client: { traceProtocol: true },
    });
    const others = folders(agent.dir);
    await agent.client.newSession({ cwd: agent.dir, additionalDirectories: others });
    await agent.client.newSession({ cwd: agent.dir, additionalDirectories: others });
    // What went on the wire (the protocol trace): two session/new, neither with additionalDirectories.
    const sent = agent.logger.lines.filter((line) => line.message.includes('"session/new"'));
    assert.ok(sent.length >= 2, 'the session/new requests were traced');
    assert.ok(sent.every((line) => !line.message.includes('additionalDirectories')));
    const said = agent.logger.lines
      .map((line) => line.message)
      .filter((message) => message.includes('no additionalDirectories'));
    assert.equal(said.length, 1, 'logged once');
    assert.match(said[0] ?? '', /2 other workspace folder\(s\) not given to it/);
  });
});
