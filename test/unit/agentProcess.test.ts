import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AgentNotRunningError, AgentProcess, type AgentProcessOptions } from '../../src/core/connection/agentProcess';
import { until } from '../support/until';
import { isAlive } from '../support/processes';

/**
 * Waits for `pid` to be gone, up to `limitMs`, and returns whether it still lives. The pid is a
 * grandchild, not our child: there is no exit event to wait on, so its state is read again until then.
 */
async function aliveAfterWaiting(pid: number, limitMs: number): Promise<boolean> {
  await until(() => !isAlive(pid), `process ${pid} gone`, limitMs).catch(() => {});
  return isAlive(pid);
}

/** Reads the stream until the text read so far satisfies `done`, then lets go of the stream. */
async function readUntil(
  stream: ReadableStream<Uint8Array>,
  done: (text: string) => boolean,
): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (!done(text)) {
      const next = await reader.read();
      if (next.done) {
        break;
      }
      text += decoder.decode(next.value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text;
}

describe('AgentProcess', () => {
  let dir: string;
  const started: AgentProcess[] = [];
  const strayPids: number[] = [];

  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'agent-process-test-'));
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((agent) => agent.stop()));
    for (const pid of strayPids.splice(0)) {
      if (isAlive(pid)) {
        process.kill(pid, 'SIGKILL');
      }
    }
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function script(name: string, source: string): string {
    const file = path.join(dir, name);
    writeFileSync(file, source);
    return file;
  }

  function run(file: string, options: AgentProcessOptions = {}): AgentProcess {
    const agent = new AgentProcess({ command: process.execPath, args: [file], cwd: dir }, options);
    started.push(agent);
    return agent;
  }

  it('exchanges bytes over stdin and the stdout web stream', async () => {
    const agent = run(
      script(
        'upper.js',
        `process.stdin.on('data', (d) => process.stdout.write(d.toString().toUpperCase()));
         process.stdin.on('end', () => process.exit(0));`,
      ),
    );

    const writer = agent.stdin.getWriter();
    await writer.write(new TextEncoder().encode('ping\n'));
    await writer.write(new TextEncoder().encode('{"a":1}\n'));
    await writer.close();
    const output = await readUntil(agent.stdout, () => false);

    assert.equal(output, 'PING\n{"A":1}\n');
    assert.deepEqual(await agent.exited, { code: 0, signal: null });
  });

  it('reports the exit code and stops running', async () => {
    const agent = run(script('exit3.js', 'process.exit(3);'));
    assert.equal(agent.running, true);

    const exit = await agent.exited;

    assert.deepEqual(exit, { code: 3, signal: null });
    assert.equal(agent.running, false);
    assert.deepEqual(agent.exitInfo, { code: 3, signal: null });
  });

  it('reports the signal that killed the process', async () => {
    const agent = run(
      script('selfkill.js', "process.kill(process.pid, 'SIGTERM'); setInterval(() => {}, 1000);"),
    );

    assert.deepEqual(await agent.exited, { code: null, signal: 'SIGTERM' });
  });

  it('keeps only the stderr tail and announces every stderr piece', async () => {
    const full = 'line1\nline2\nline3\n';
    const agent = run(script('stderr.js', `process.stderr.write(${JSON.stringify(full)});`), {
      stderrLimit: 10,
    });
    let seen = '';
    const allSeen = new Promise<void>((resolve) => {
      agent.onStderr((text) => {
        seen += text;
        if (seen.length >= full.length) {
          resolve();
        }
      });
    });

    await allSeen;
    await agent.exited;

    assert.equal(seen, full);
    assert.equal(agent.stderr.text(), 'ne2\nline3\n');
    assert.equal(agent.stderr.droppedChars, 8);
    assert.deepEqual(agent.stderr.lastLines(5), ['ne2', 'line3']);
  });

  it('stops a process that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const agent = run(
      script(
        'stubborn.js',
        `process.on('SIGTERM', () => {});
         process.stdout.write('ready\\n');
         setInterval(() => {}, 1000);`,
      ),
      { stopGraceMs: 200 },
    );
    await readUntil(agent.stdout, (text) => text.includes('ready\n'));

    const exit = await agent.stop();

    assert.deepEqual(exit, { code: null, signal: 'SIGKILL' });
    assert.deepEqual(await agent.exited, exit);
  });

  it('returns the earlier exit when stopping a process that already ended', async () => {
    const agent = run(script('exit0.js', 'process.exit(0);'));
    await agent.exited;

    assert.deepEqual(await agent.stop(), { code: 0, signal: null });
  });

  it('kills a grandchild in the process group on stop', async () => {
    const agent = run(
      script(
        'parent.js',
        `const { spawn } = require('node:child_process');
         const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
         process.stdout.write(child.pid + '\\n');
         setInterval(() => {}, 1000);`,
      ),
      { stopGraceMs: 200 },
    );
    const grandchild = Number((await readUntil(agent.stdout, (text) => text.endsWith('\n'))).trim());
    strayPids.push(grandchild);
    assert.equal(isAlive(grandchild), true);

    await agent.stop();

    assert.equal(await aliveAfterWaiting(grandchild, 5000), false);
  });

  it('kills a grandchild that ignores SIGTERM even when the direct child exits on SIGTERM', async () => {
    const agent = run(
      script(
        'wrapper.js',
        `const { spawn } = require('node:child_process');
         const child = spawn(
           process.execPath,
           ['-e', "process.on('SIGTERM', () => {}); process.stdout.write('grandchild ready\\\\n'); setInterval(() => {}, 1000)"],
           { stdio: ['ignore', 'inherit', 'ignore'] },
         );
         process.stdout.write(child.pid + '\\n');
         setInterval(() => {}, 1000);`,
      ),
      { stopGraceMs: 200 },
    );
    const output = await readUntil(
      agent.stdout,
      (text) => text.includes('grandchild ready\n') && /^\d+\n/.test(text),
    );
    const grandchild = Number(/^(\d+)\n/.exec(output)?.[1]);
    strayPids.push(grandchild);

    const exit = await agent.stop();

    assert.deepEqual(exit, { code: null, signal: 'SIGTERM' });
    assert.equal(
      await aliveAfterWaiting(grandchild, 3000),
      false,
      `grandchild ${grandchild} survived stop()`,
    );
  });

  describe('writing to a process that is gone', () => {
    const problems: unknown[] = [];
    const record = (error: unknown): void => {
      problems.push(error);
    };

    beforeEach(() => {
      problems.length = 0;
      process.on('uncaughtException', record);
      process.on('unhandledRejection', record);
    });

    afterEach(() => {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    });

    /**
     * Gives a stray EPIPE or an unhandled rejection the turns of the event loop it needs to surface. A
     * window on purpose: the claim is that nothing happens in it, and "nothing happened" has no event.
     */
    async function settle(): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await new Promise((resolve) => setImmediate(resolve));
    }

    it('rejects a write after the process exited with AgentNotRunningError', async () => {
      const agent = run(script('quit.js', 'process.exit(0);'));
      await agent.exited;

      const writer = agent.stdin.getWriter();
      await assert.rejects(
        writer.write(new TextEncoder().encode('{"jsonrpc":"2.0"}\n')),
        (error: unknown) => {
          assert.ok(error instanceof AgentNotRunningError);
          assert.equal(error.message, 'The agent process is not running (exited with code 0).');
          return true;
        },
      );
      await settle();

      assert.deepEqual(problems, []);
    });

    it('rejects a write to a running process that closed its stdin', async () => {
      const agent = run(
        script(
          'closestdin.js',
          `require('node:fs').closeSync(0);
           process.stdout.write('closed\\n');
           setInterval(() => {}, 1000);`,
        ),
      );
      await readUntil(agent.stdout, (text) => text.includes('closed\n'));

      const writer = agent.stdin.getWriter();
      await assert.rejects(writer.write(new TextEncoder().encode('x'.repeat(100_000))), AgentNotRunningError);
      await settle();

      assert.deepEqual(problems, []);
      assert.equal(agent.running, true);
    });
  });

  it('reports a command that does not exist as an exit with the ENOENT error', async () => {
    const missing = path.join(dir, 'no-such-agent');
    const agent = new AgentProcess({ command: missing, args: ['--acp'], cwd: dir });

    const exit = await agent.exited;

    assert.deepEqual(exit, { code: null, signal: null, error: `ENOENT spawn ${missing} ENOENT` });
    assert.equal(agent.pid, undefined);
    assert.deepEqual(await agent.stop(), exit);
    await assert.rejects(agent.stdin.getWriter().write(new Uint8Array([1])), AgentNotRunningError);
  });
});
