import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ClientRefusalError } from '../../src/core/ports';
import { entriesOf, text, useTestAgent } from './support/testAgent';

/** The text of the last agent message of the session. */
function lastReply(entries: unknown[]): string {
  const last = entries.at(-1) as { kind: string; text: string };
  assert.equal(last.kind, 'agent');
  return last.text;
}

describe('fs/read_text_file and fs/write_text_file', () => {
  const agent = useTestAgent();

  /** Sends `prompt` in a new session and returns the agent's last message. */
  async function replyTo(prompt: string): Promise<string> {
    const session = await agent.session();
    await session.prompt([text(prompt)]);
    return lastReply(entriesOf(session));
  }

  it('reads a whole file', async () => {
    const file = path.join(agent.dir, 'notes.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const reply = await replyTo(`fs read ${file}`);
    assert.equal(reply, 'one\ntwo\nthree\n');
  });

  it('honours the 1-based line and limit', async () => {
    const file = path.join(agent.dir, 'notes.txt');
    writeFileSync(file, 'one\ntwo\nthree\nfour\n');
    const reply = await replyTo(`fs read ${file} 2 2`);
    assert.equal(reply, 'two\nthree\n');
  });

  it('answers a missing file with resource-not-found (-32002)', async () => {
    const reply = await replyTo(`fs read ${path.join(agent.dir, 'missing.txt')}`);
    assert.match(reply, /^read error -32002: /);
  });

  it('refuses a relative path with invalid params', async () => {
    const reply = await replyTo('fs read relative/file.txt');
    assert.match(reply, /^read error -32602: /);
  });

  it('writes a file, creating its folders', async () => {
    const file = path.join(agent.dir, 'new', 'deep', 'file.txt');
    const reply = await replyTo(`fs write ${file} hello world\\nsecond line`);
    assert.equal(reply, 'wrote 23 chars');
    assert.equal(readFileSync(file, 'utf8'), 'hello world\nsecond line');
  });

  it('reads then writes through the client in one turn', async () => {
    const file = path.join(agent.dir, 'shout.txt');
    writeFileSync(file, 'quiet words\n');
    const reply = await replyTo(`fs roundtrip ${file}`);
    assert.equal(reply, 'roundtrip ok');
    assert.equal(readFileSync(file, 'utf8'), 'QUIET WORDS\n');
  });

  it('answers a refusal with its own code (-32001), the reason in data and what the agent can do', async () => {
    await agent.restart({
      fileSystem: {
        readTextFile: async () => 'x',
        writeTextFile: async () => {
          throw new ClientRefusalError('The user rejected this edit.', 'user_declined');
        },
      },
    });
    const reply = await replyTo(`fs write ${path.join(agent.dir, 'x.txt')} nope`);
    assert.equal(
      reply,
      'write error -32001: The user rejected this edit. The user declined this; do not retry it as is — ' +
        'ask the user how to proceed. data {"reason":"user_declined"}',
    );
    assert.deepEqual(agent.logger.messages('error'), [], 'a decision is not logged as an error');
    assert.ok(
      agent.logger
        .messages('info')
        .includes("Refused the agent's request (user_declined): The user rejected this edit."),
    );
  });

  it('answers each refusal reason with the same code and its own next step', async () => {
    let refusal = new ClientRefusalError(
      'Access to /etc/passwd was refused: it is outside the workspace.',
      'outside_workspace',
    );
    await agent.restart({
      fileSystem: {
        readTextFile: async () => {
          throw refusal;
        },
        writeTextFile: async () => undefined,
      },
    });
    const session = await agent.session();
    await session.prompt([text('fs read /etc/passwd')]);
    assert.equal(
      lastReply(entriesOf(session)),
      'read error -32001: Access to /etc/passwd was refused: it is outside the workspace. Only files inside the ' +
        'workspace folders can be used without the user allowing it; use a path inside the workspace. ' +
        'data {"reason":"outside_workspace"}',
    );
    refusal = new ClientRefusalError(
      '/w/logo.png is a binary file; only text files can be read.',
      'unsupported',
    );
    await session.prompt([text('fs read /w/logo.png')]);
    assert.equal(
      lastReply(entriesOf(session)),
      'read error -32001: /w/logo.png is a binary file; only text files can be read. The same request will be ' +
        'refused again; change what is asked. data {"reason":"unsupported"}',
    );
  });

  it('answers an I/O failure as an internal error (-32603), not a refusal, and logs it', async () => {
    await agent.restart({
      fileSystem: {
        readTextFile: async () => 'x',
        writeTextFile: async () => {
          throw new Error('EIO: i/o error, write', { cause: new Error('disk unplugged') });
        },
      },
    });
    const reply = await replyTo(`fs write ${path.join(agent.dir, 'x.txt')} data`);
    assert.equal(reply, 'write error -32603: EIO: i/o error, write');
    assert.deepEqual(agent.logger.messages('error'), [
      'Answering the agent failed: EIO: i/o error, write [internal]\n  caused by Error: disk unplugged',
    ]);
  });
});
