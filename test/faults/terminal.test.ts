import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeTerminals } from '../../src/core/node/nodeTerminals';
import { memory, MiB } from './hostile';

describe('faults: a command that floods its terminal', () => {
  let dir: string;
  let terminals: NodeTerminals;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-flood-'));
    terminals = new NodeTerminals(dir);
  });
  afterEach(async () => {
    await terminals.dispose();
    rmSync(dir, { recursive: true, force: true });
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
});
