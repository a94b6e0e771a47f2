import { strict as assert } from 'node:assert';
import { NodeTerminals } from '../../src/features/terminals/core/nodeTerminals';
import { TerminalRelay } from '../../src/features/terminals/chat/terminalRelay';
import type { TerminalOutputMessage } from '../../src/protocol';
import { memory, MiB, until } from './hostile';
import { useTempFolder } from '../support/tempFolder';

describe('faults: a command that floods its terminal', () => {
  let terminals: NodeTerminals;
  afterEach(async () => {
    await terminals.dispose();
  });
  const dir = useTempFolder('acp-flood-');
  beforeEach(() => {
    terminals = new NodeTerminals(dir.path);
  });

  it('keeps 1 MiB of 64 MiB printed in 100-byte writes, with memory bounded', async () => {
    // 64 MiB in 100-byte lines, each line its own write: many small chunks reach the buffer.
    const script = [
      'const line = "y".repeat(99) + "\\n";',
      'let left = 64 * 1024 * 1024 / 100;',
      'function pump() { while (left > 0) { left--; if (!process.stdout.write(line)) { return process.stdout.once("drain", pump); } } process.stdout.write("END"); }',
      'pump();',
    ].join('\n');
    let appends = 0;
    const subscription = terminals.onDidChange(() => appends++);
    const before = memory();
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', script],
      outputByteLimit: MiB,
    });
    assert.deepEqual(await terminals.waitForExit(id), { exitCode: 0, signal: null });
    subscription.dispose();
    const { output, truncated } = await terminals.output(id);
    assert.equal(truncated, true);
    assert.ok(Buffer.byteLength(output) <= MiB);
    assert.ok(output.endsWith('y\nEND'));
    assert.ok(appends > 64, `${appends} appends`);
    const grown = memory().heap - before.heap;
    assert.ok(grown < 32 * MiB, `heap grew ${Math.round(grown / MiB)} MiB`);
  });

  it('relays a flood to the view as deltas: what is sent follows the output, not what is shown', async () => {
    const script = [
      'let left = 8 * 1024 * 1024 / 100; let n = 0;',
      'function pump() { while (left > 0) { left--; const line = String(n++).padStart(99, ".") + "\\n"; if (!process.stdout.write(line)) { return process.stdout.once("drain", pump); } } }',
      'pump();',
    ].join('\n');
    const messages: TerminalOutputMessage[] = [];
    const relay = new TerminalRelay(terminals, (message) => messages.push(message));
    try {
      const id = await terminals.create({
        sessionId: 's1',
        command: process.execPath,
        args: ['-e', script],
        outputByteLimit: MiB,
      });
      await terminals.waitForExit(id);
      await until(() => messages.at(-1)?.exitStatus !== undefined);
      // The view's side: append deltas, replace on a whole message.
      let view = '';
      for (const message of messages) {
        view = message.append ? view + message.output : message.output;
      }
      const final = await terminals.output(id);
      assert.ok(view.endsWith(final.output), 'the view ends with what the terminal holds');
      assert.ok(view.length <= 2 * MiB + 64 * 1024, `the view holds ${view.length} characters`);
      const lines = view.split('\n').filter(Boolean);
      // Consecutive numbered lines: nothing lost or doubled at the delta seams (the first may be cut).
      for (let i = 2; i < lines.length; i++) {
        assert.equal(
          Number(lines[i]?.replace(/^\.+/, '')),
          Number(lines[i - 1]?.replace(/^\.+/, '')) + 1,
          `line ${i}`,
        );
      }
      const sent = messages.reduce((sum, message) => sum + message.output.length, 0);
      const printed = 8 * MiB;
      assert.ok(
        sent < 2 * printed,
        `${Math.round(sent / MiB)} MiB sent for ${printed / MiB} MiB printed in ${messages.length} messages`,
      );
      assert.ok(
        messages.some((message) => message.append),
        'deltas were sent',
      );
    } finally {
      relay.dispose();
    }
  });
});
