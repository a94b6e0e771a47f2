/**
 * Which agent terminals get a window (a VS Code terminal in the product), over real processes: the
 * first few as they start, any other on demand for the session that owns it, within a bound that
 * closes the oldest window without stopping its command.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeTerminals } from '../../../src/features/terminals/core/nodeTerminals';
import {
  TerminalWindows,
  type TerminalWindow,
  type TerminalWindowLimits,
} from '../../../src/features/terminals/chat/terminalWindows';
import { until } from '../../support/until';

/** A window that records what it was given. */
class RecordedWindow implements TerminalWindow {
  text = '';
  revealed = 0;
  closed = false;
  constructor(
    readonly name: string,
    readonly userClose: () => void,
  ) {}
  write(text: string): void {
    assert.equal(this.closed, false, `${this.name} was written after it closed`);
    this.text += text;
  }
  reveal(): void {
    this.revealed++;
  }
  close(): void {
    this.closed = true;
  }
}

describe('terminal windows: the first few at once, the others on demand, bounded', () => {
  let dir: string;
  let processes: NodeTerminals;
  let windows: TerminalWindows<RecordedWindow>;
  let opened: RecordedWindow[];

  function start(limits: TerminalWindowLimits): void {
    opened = [];
    windows = new TerminalWindows(
      {
        onDidWrite: processes.onDidWrite,
        lastOutput: (id) => processes.lastOutput(id),
        waitForExit: (id) => processes.waitForExit(id),
        kill: (id) => processes.kill(id),
      },
      (name, onUserClose) => {
        const window = new RecordedWindow(name, onUserClose);
        opened.push(window);
        return window;
      },
      limits,
    );
  }

  /** Starts `command` for `sessionId` and tells the windows, as VsCodeTerminals does. */
  async function run(sessionId: string, command: string): Promise<string> {
    const id = await processes.create({ sessionId, command });
    windows.created(id, sessionId, command);
    return id;
  }

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'terminal-windows-'));
    processes = new NodeTerminals(dir, { killGraceMs: 500 });
  });

  afterEach(async () => {
    windows.dispose();
    await processes.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a window for the first few; another opens on demand with what it printed so far, then follows it', async () => {
    start({ openAtOnce: 2, maxOpen: 8, kept: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      // Prints, then waits for the test to create go-<i> before printing again.
      ids.push(await run('s1', `echo early-${i}; until [ -e go-${i} ]; do sleep 0.05; done; echo late-${i}`));
    }
    assert.deepEqual(
      opened.map((w) => w.name),
      ['Agent: echo early-0; until [ -e go-0 ]; do sle…', 'Agent: echo early-1; until [ -e go-1 ]; do sle…'],
    );
    const third = ids[2]!;
    await until(() => processes.lastOutput(third)?.output === 'early-2\n', 'the third command to print');

    // Another session's id is as unknown as a missing one: nothing opens.
    assert.equal(windows.show(third, 's2'), false);
    assert.equal(opened.length, 2);

    assert.equal(windows.show(third, 's1'), true);
    const window = opened[2];
    assert.ok(window);
    assert.equal(window.revealed, 1);
    assert.equal(
      window.text,
      '\x1b[2m$ echo early-2; until [ -e go-2 ]; do sleep 0.05; done; echo late-2\x1b[0m\r\nearly-2\r\n',
    );
    assert.equal(windows.windowFor(third), window, 'shown again, the same window');
    assert.equal(windows.openWindows, 3);
    // What it prints from now on follows in the window.
    writeFileSync(path.join(dir, 'go-2'), '');
    await processes.waitForExit(third);
    await until(
      () => window.text.endsWith('[exited with code 0]\x1b[0m\r\n'),
      'the window to say how it ended',
    );
    assert.match(window.text, /early-2\r\nlate-2\r\n\r\n/);
  });

  it('closes the oldest window past the bound without stopping its command, and opens it again on demand', async () => {
    start({ openAtOnce: 2, maxOpen: 3, kept: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await run('s1', `echo run-${i}; sleep 30`));
    }
    assert.equal(windows.show(ids[2]!, 's1'), true);
    assert.equal(windows.show(ids[3]!, 's1'), true);
    assert.deepEqual(
      opened.map((w) => w.closed),
      [true, false, false, false],
      'the fourth window closed the first',
    );
    assert.equal(windows.openWindows, 3);
    // Closed by the bound, not by the person: its command runs on.
    await until(() => processes.lastOutput(ids[0]!)?.output === 'run-0\n', 'the first command to print');
    assert.equal(processes.lastOutput(ids[0]!)?.exitStatus, undefined);
    assert.equal(windows.show(ids[0]!, 's1'), true);
    assert.equal(opened.length, 5);
    assert.match(opened[4]!.text, /run-0\r\n$/);
  });

  it("stops the command when the person closes its window, and keeps a released terminal's window to read", async () => {
    start({ openAtOnce: 1, maxOpen: 4, kept: 1 });
    // Holds the one window opened at start, so the others open only on demand.
    await run('s1', 'sleep 30');
    const id = await run('s1', 'echo started; sleep 30');
    assert.equal(windows.show(id, 's1'), true);
    const window = opened[1];
    assert.ok(window);
    window.userClose();
    assert.deepEqual(await processes.waitForExit(id), { exitCode: null, signal: 'SIGTERM' });
    await until(() => window.text.includes('[killed by SIGTERM]'), 'the window to say how it ended');

    await processes.release(id);
    windows.released(id);
    assert.equal(windows.show(id, 's1'), true, "a released terminal's window stays readable");
    // Released without a window: there is nothing to open.
    const unseen = await run('s1', 'true');
    await processes.release(unseen);
    windows.released(unseen);
    assert.equal(windows.show(unseen, 's1'), false);
    // A newer kept window closes the older one.
    const next = await run('s1', 'true');
    assert.equal(windows.show(next, 's1'), true);
    await processes.release(next);
    windows.released(next);
    assert.equal(window.closed, true);
    assert.equal(windows.show(id, 's1'), false);
  });
});
