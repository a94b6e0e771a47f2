import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { findOnPath, findOnPathAsync, spawnProgram } from '../../src/core/connection/spawnProgram';

const AS_WINDOWS = path.join(__dirname, 'support', 'asWindows.ts');
/** tsx by location: the child runs in the scratch folder, where a bare `tsx` does not resolve. */
const TSX = pathToFileURL(require.resolve('tsx')).href;

interface WindowsPlan {
  readonly file: string;
  readonly args: readonly string[];
  readonly windowsVerbatimArguments: boolean;
  readonly resolved: string | null;
  readonly notFound: { code: string; syscall: string } | null;
  readonly foundOnPath: string | null;
}

/**
 * What cross-spawn plans for `command args` and what `findOnPath` finds, in a Node process that
 * believes it is on Windows (see support/asWindows.ts for what that fake can and cannot show).
 * `processEnv` is that process's own environment (cross-spawn reads ComSpec and PATHEXT there).
 */
function planAsWindows(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  processEnv: Record<string, string> = {},
  cwd?: string,
): WindowsPlan {
  const output = execFileSync(
    process.execPath,
    ['--import', TSX, AS_WINDOWS, JSON.stringify({ command, args, env, cwd })],
    {
      cwd: scratch,
      env: { PATH: process.env['PATH'] ?? '', PATHEXT: '.COM;.EXE;.BAT;.CMD', ...processEnv },
      encoding: 'utf8',
    },
  );
  return JSON.parse(output) as WindowsPlan;
}

let scratch: string;

/** Creates `relative` under the scratch folder (with its folders) and returns its absolute path. */
function file(relative: string, content = '@ECHO off\r\n', mode = 0o644): string {
  const absolute = path.join(scratch, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, content);
  chmodSync(absolute, mode);
  return absolute;
}

function folder(relative: string): string {
  const absolute = path.join(scratch, relative);
  mkdirSync(absolute, { recursive: true });
  return absolute;
}

describe('spawnProgram and findOnPath', () => {
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'acp-spawn-'));
  });

  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('on this machine (linux)', () => {
    it('passes the arguments through unchanged, with no shell in between', async () => {
      const args = [
        '-e',
        'process.stdout.write(JSON.stringify(process.argv.slice(1)))',
        'a b',
        'x&y',
        '$HOME',
        '"q"',
      ];
      const child = spawnProgram(process.execPath, args, {
        env: process.env,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));

      assert.equal(code, 0);
      assert.deepEqual(JSON.parse(output), ['a b', 'x&y', '$HOME', '"q"']);
    });

    it('reports a command that does not exist as an ENOENT error', async () => {
      const child = spawnProgram('acp-no-such-agent', [], { stdio: 'ignore', env: { PATH: scratch } });
      const error = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));

      assert.equal(error.code, 'ENOENT');
      assert.equal(child.pid, undefined);
    });

    it('finds a command in the first PATH folder that holds it as an executable', async () => {
      file('a/agent', '#!/bin/sh\n', 0o644); // not executable: a shell would skip it too
      const inB = file('b/agent', '#!/bin/sh\n', 0o755);
      file('c/agent', '#!/bin/sh\n', 0o755);
      const env = { PATH: [folder('a'), folder('b'), folder('c')].join(':') };

      assert.equal(findOnPath('agent', env), inB);
      assert.equal(await findOnPathAsync('agent', env), inB);
    });

    it('checks a command given with a path as it is', async () => {
      const program = file('tools/agent', '#!/bin/sh\n', 0o755);

      assert.equal(findOnPath(program, { PATH: '' }), program);
      assert.equal(findOnPath(path.join(scratch, 'tools/missing'), { PATH: folder('tools') }), undefined);
    });

    it('finds nothing when the command is on no PATH folder, or PATH is empty or missing', async () => {
      file('bin/other', '#!/bin/sh\n', 0o755);
      // A program in the current folder must not count when PATH is empty.
      file('agent', '#!/bin/sh\n', 0o755);
      const cwd = process.cwd();
      process.chdir(scratch);
      try {
        assert.equal(findOnPath('agent', { PATH: folder('bin') }), undefined);
        assert.equal(findOnPath('agent', { PATH: '' }), undefined);
        assert.equal(findOnPath('agent', {}), undefined);
        assert.equal(await findOnPathAsync('agent', {}), undefined);
      } finally {
        process.chdir(cwd);
      }
    });
  });

  // cross-spawn and which decide by `process.platform` when they load, so these run them in a child
  // process that believes it is on Windows. They show the resolution and quoting; they cannot start
  // cmd.exe, and the fake's file names are case-sensitive where NTFS is not.
  describe('on Windows (a process that believes it is on win32)', () => {
    it('resolves npx through PATH and PATHEXT to the .cmd shim and runs it under cmd.exe', () => {
      const shim = file('nodejs/npx.CMD');
      const plan = planAsWindows('npx', ['-y', '@zed-industries/claude-code-acp'], {
        PATH: `${folder('system32')};${folder('nodejs')}`,
      });

      assert.equal(plan.resolved, shim);
      assert.equal(plan.foundOnPath, shim);
      assert.equal(plan.file, 'cmd.exe');
      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^"-y^" ^"@zed-industries/claude-code-acp^""`]);
      assert.equal(plan.windowsVerbatimArguments, true);
    });

    it('runs the shim under ComSpec when it is set', () => {
      const shim = file('nodejs/npx.CMD');
      const plan = planAsWindows(
        'npx',
        ['--version'],
        { PATH: folder('nodejs') },
        {
          // Windows environment names are case-insensitive; cross-spawn reads `comspec`.
          comspec: 'C:\\Windows\\system32\\cmd.exe',
        },
      );

      assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^"--version^""`]);
    });

    it('quotes an argument with spaces and quotes and escapes the quotes for the MSVC parser', () => {
      const shim = file('nodejs/npx.CMD');
      const plan = planAsWindows('npx', ['say "hi" now'], { PATH: folder('nodejs') });

      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^"say^ \\^"hi\\^"^ now^""`]);
    });

    it('doubles trailing backslashes so they do not escape the closing quote', () => {
      const shim = file('nodejs/npx.CMD');
      const plan = planAsWindows('npx', ['C:\\dir\\'], { PATH: folder('nodejs') });

      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^"C:\\dir\\\\^""`]);
    });

    it('escapes the cmd metacharacters & | % ^ with a caret', () => {
      const shim = file('nodejs/npx.CMD');
      const plan = planAsWindows('npx', ['a&b|c%PATH%^d'], { PATH: folder('nodejs') });

      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^"a^&b^|c^%PATH^%^^d^""`]);
    });

    it('escapes the arguments twice for a shim under node_modules\\.bin, which runs a second cmd.exe', () => {
      const shim = file('proj/node_modules/.bin/agent.CMD');
      const plan = planAsWindows('agent', ['a&b', '50%'], {
        PATH: `${folder('system32')};${folder('proj/node_modules/.bin')}`,
      });

      assert.equal(plan.resolved, shim);
      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${shim} ^^^"a^^^&b^^^" ^^^"50^^^%^^^""`]);
      assert.equal(plan.windowsVerbatimArguments, true);
    });

    it('resolves a command given with a path and no extension', () => {
      const script = file('tools/agent.BAT');
      const plan = planAsWindows(path.join(scratch, 'tools', 'agent'), ['x'], { PATH: folder('system32') });

      assert.equal(plan.resolved, script);
      assert.equal(plan.foundOnPath, script);
      assert.equal(plan.file, 'cmd.exe');
      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${script} ^"x^""`]);
    });

    it('runs an .exe resolution directly with the arguments unquoted and not verbatim', () => {
      const exe = file('nodejs/node.EXE');
      file('nodejs/node.CMD');
      const plan = planAsWindows('node', ['a b', 'x&y'], { PATH: folder('nodejs') });

      assert.equal(plan.resolved, exe);
      assert.equal(plan.file, exe);
      assert.deepEqual(plan.args, ['a b', 'x&y']);
      assert.equal(plan.windowsVerbatimArguments, false);
    });

    it('prefers the first PATH directory that holds the command', () => {
      const exe = file('system32/agent.EXE');
      file('nodejs/agent.CMD');
      const plan = planAsWindows('agent', ['a&b'], { PATH: `${folder('system32')};${folder('nodejs')}` });

      assert.equal(plan.resolved, exe);
      assert.equal(plan.foundOnPath, exe);
      assert.equal(plan.file, exe);
      assert.deepEqual(plan.args, ['a&b']);
    });

    it('reads the Path spelling of the variable when PATH is absent', () => {
      const shim = file('bin/agent.CMD');
      const plan = planAsWindows('agent', [], { Path: folder('bin') });

      assert.equal(plan.resolved, shim);
      assert.equal(plan.foundOnPath, shim);
    });

    it("runs the shim on PATH, not one in the agent's working folder that cmd.exe would look in first", () => {
      const onPath = file('nodejs/npx.CMD');
      file('workspace/npx.CMD');
      const plan = planAsWindows('npx', ['-y'], { PATH: folder('nodejs') }, {}, folder('workspace'));

      assert.equal(plan.resolved, onPath);
      assert.deepEqual(plan.args, ['/d', '/s', '/c', `"${onPath} ^"-y^""`]);
    });

    it('reports a command found nowhere as ENOENT once cmd.exe says so', () => {
      const plan = planAsWindows('agent', ['--acp'], { PATH: folder('system32') });

      assert.equal(plan.resolved, null);
      assert.equal(plan.foundOnPath, null);
      // cmd.exe starts and exits 1 ("not recognized"); cross-spawn turns that exit into this error,
      // which AgentProcess reports as a failed start.
      assert.deepEqual(plan.notFound, { code: 'ENOENT', syscall: 'spawn agent' });
    });
  });
});
