import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import { ClientRefusalError } from '../../../src/core/ports';
import { until } from '../../support/until';

describe('NodeTerminals', () => {
  let dir: string;
  let terminals: NodeTerminals;

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'node-terminals-test-'));
  });

  beforeEach(() => {
    terminals = new NodeTerminals(dir);
  });

  afterEach(async () => {
    await terminals.dispose();
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs a command without args as a shell command line', async () => {
    const id = await terminals.create({ sessionId: 's1', command: 'echo hi && echo err 1>&2; exit 3' });

    const exit = await terminals.waitForExit(id);
    const { output, truncated, exitStatus } = await terminals.output(id);

    assert.deepEqual(exit, { exitCode: 3, signal: null });
    // stdout and stderr are separate pipes, so their relative order is not fixed.
    assert.deepEqual(output.split('\n').sort(), ['', 'err', 'hi']);
    assert.equal(truncated, false);
    assert.deepEqual(exitStatus, { exitCode: 3, signal: null });
  });

  it('runs a command with args directly, without a shell', async () => {
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', 'process.stdout.write(process.argv[1] + "|" + process.cwd())', '$HOME && echo no'],
    });

    await terminals.waitForExit(id);

    assert.deepEqual(await terminals.output(id), {
      output: `$HOME && echo no|${dir}`,
      truncated: false,
      exitStatus: { exitCode: 0, signal: null },
    });
  });

  it('runs in the requested cwd with the requested env added', async () => {
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', 'process.stdout.write(process.cwd() + "|" + process.env.TERMINAL_TEST_VALUE)'],
      cwd,
      env: { TERMINAL_TEST_VALUE: 'forty two' },
    });

    await terminals.waitForExit(id);

    assert.equal((await terminals.output(id)).output, `${cwd}|forty two`);
  });

  it('keeps only the last outputByteLimit bytes and reports truncation', async () => {
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', 'process.stdout.write("0123456789".repeat(1000) + "END")'],
      outputByteLimit: 8,
    });

    await terminals.waitForExit(id);

    assert.deepEqual(await terminals.output(id), {
      output: '56789END',
      truncated: true,
      exitStatus: { exitCode: 0, signal: null },
    });
  });

  it('has no exit status while the command runs and has it after', async () => {
    const id = await terminals.create({
      sessionId: 's1',
      command: process.execPath,
      args: ['-e', 'process.stdout.write("started\\n"); setTimeout(() => process.exit(5), 60000)'],
    });

    const running = await waitForOutput(terminals, id, 'started\n');
    assert.deepEqual(running, { output: 'started\n', truncated: false });
    await terminals.kill(id);
    await terminals.waitForExit(id);

    assert.deepEqual(await terminals.output(id), {
      output: 'started\n',
      truncated: false,
      exitStatus: { exitCode: null, signal: 'SIGTERM' },
    });
  });

  it('kills a long-running shell command with SIGTERM', async () => {
    const id = await terminals.create({ sessionId: 's1', command: 'sleep 30' });

    await terminals.kill(id);

    assert.deepEqual(await terminals.waitForExit(id), { exitCode: null, signal: 'SIGTERM' });
  });

  it('forgets a released terminal', async () => {
    const id = await terminals.create({ sessionId: 's1', command: 'sleep 30' });
    const exited = terminals.waitForExit(id);

    await terminals.release(id);

    await assert.rejects(
      terminals.output(id),
      new ClientRefusalError(`Unknown or released terminal ${id}`, 'not_available'),
    );
    await assert.rejects(terminals.kill(id), ClientRefusalError);
    assert.deepEqual(await exited, { exitCode: null, signal: 'SIGTERM' });
  });

  it('refuses an id it never gave out', async () => {
    await assert.rejects(
      terminals.output('term-99'),
      new ClientRefusalError('Unknown or released terminal term-99', 'not_available'),
    );
  });

  it('gives each terminal its own id', async () => {
    const first = await terminals.create({ sessionId: 's1', command: 'exit 0' });
    const second = await terminals.create({ sessionId: 's1', command: 'exit 0' });

    assert.deepEqual([first, second], ['term-1', 'term-2']);
  });
});

/** The terminal's output once it contains `text` (the output has no event: it is read again until then). */
async function waitForOutput(
  terminals: NodeTerminals,
  id: string,
  text: string,
): Promise<{ output: string; truncated: boolean }> {
  let latest = await terminals.output(id);
  await until(
    async () => (latest = await terminals.output(id)).output.includes(text),
    `${JSON.stringify(text)} in the output`,
    15_000,
  );
  return latest;
}

describe('NodeTerminals: the last output for the view', () => {
  it('keeps a released terminal’s final output and exit status readable for display', async () => {
    const terminals = new NodeTerminals();
    const id = await terminals.create({ sessionId: 's', command: 'echo done; exit 2' });
    await terminals.waitForExit(id);
    await terminals.release(id);
    await assert.rejects(terminals.output(id));
    assert.deepEqual(terminals.lastOutput(id), {
      output: 'done\n',
      truncated: false,
      exitStatus: { exitCode: 2, signal: null },
    });
    await terminals.dispose();
  });
});
