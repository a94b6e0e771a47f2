import { strict as assert } from 'node:assert';
import { planSpawn, type SpawnHost } from '../../src/core/spawnPlan';

/** A Windows host whose file system holds exactly `files` (matched case-insensitively, as NTFS does). */
function windowsHost(files: readonly string[], env: Record<string, string> = {}): SpawnHost {
  const existing = new Set(files.map((file) => file.toLowerCase()));
  return {
    platform: 'win32',
    env: { PATH: 'C:\\Windows\\system32;C:\\nodejs', PATHEXT: '.COM;.EXE;.BAT;.CMD', ...env },
    isFile: (candidate) => existing.has(candidate.toLowerCase()),
  };
}

describe('planSpawn', () => {
  it('passes the command and arguments through unchanged on linux', () => {
    const host: SpawnHost = { platform: 'linux', env: { PATH: '/usr/bin' }, isFile: () => true };

    assert.deepEqual(planSpawn('npx', ['-y', 'a b', 'x&y'], host), {
      file: 'npx',
      args: ['-y', 'a b', 'x&y'],
      windowsVerbatimArguments: false,
    });
  });

  it('resolves npx through PATH and PATHEXT to the .cmd shim and runs it under cmd.exe', () => {
    const host = windowsHost(['C:\\nodejs\\npx.cmd']);

    assert.deepEqual(planSpawn('npx', ['-y', '@zed-industries/claude-code-acp'], host), {
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"^"C:\\nodejs\\npx.CMD^" ^"-y^" ^"@zed-industries/claude-code-acp^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('runs the shim under ComSpec when it is set', () => {
    const host = windowsHost(['C:\\nodejs\\npx.cmd'], { ComSpec: 'C:\\Windows\\system32\\cmd.exe' });

    assert.deepEqual(planSpawn('npx', ['--version'], host), {
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: ['/d', '/s', '/c', '"^"C:\\nodejs\\npx.CMD^" ^"--version^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('quotes an argument with spaces and quotes and escapes the quotes for the MSVC parser', () => {
    const host = windowsHost(['C:\\nodejs\\npx.cmd']);

    const plan = planSpawn('npx', ['say "hi" now'], host);

    assert.deepEqual(plan.args, ['/d', '/s', '/c', '"^"C:\\nodejs\\npx.CMD^" ^"say^ \\^"hi\\^"^ now^""']);
  });

  it('doubles trailing backslashes so they do not escape the closing quote', () => {
    const host = windowsHost(['C:\\nodejs\\npx.cmd']);

    const plan = planSpawn('npx', ['C:\\dir\\'], host);

    assert.deepEqual(plan.args, ['/d', '/s', '/c', '"^"C:\\nodejs\\npx.CMD^" ^"C:\\dir\\\\^""']);
  });

  it('escapes the cmd metacharacters & | % ^ with a caret', () => {
    const host = windowsHost(['C:\\nodejs\\npx.cmd']);

    const plan = planSpawn('npx', ['a&b|c%PATH%^d'], host);

    assert.deepEqual(plan.args, ['/d', '/s', '/c', '"^"C:\\nodejs\\npx.CMD^" ^"a^&b^|c^%PATH^%^^d^""']);
  });

  it('escapes the arguments twice for a shim under node_modules\\.bin, which runs a second cmd.exe', () => {
    const host = windowsHost(['C:\\proj\\node_modules\\.bin\\agent.cmd'], {
      PATH: 'C:\\Windows\\system32;C:\\proj\\node_modules\\.bin',
    });

    assert.deepEqual(planSpawn('agent', ['a&b', '50%'], host), {
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"^"C:\\proj\\node_modules\\.bin\\agent.CMD^" ^^^"a^^^&b^^^" ^^^"50^^^%^^^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('resolves a command given with a path and no extension', () => {
    const host = windowsHost(['C:\\tools\\agent.bat']);

    assert.deepEqual(planSpawn('C:\\tools\\agent', ['x'], host), {
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"^"C:\\tools\\agent.BAT^" ^"x^""'],
      windowsVerbatimArguments: true,
    });
  });

  it('runs an .exe resolution directly with the arguments unquoted and not verbatim', () => {
    const host = windowsHost(['C:\\nodejs\\node.exe', 'C:\\nodejs\\node.cmd']);

    assert.deepEqual(planSpawn('node', ['a b', 'x&y'], host), {
      file: 'C:\\nodejs\\node.EXE',
      args: ['a b', 'x&y'],
      windowsVerbatimArguments: false,
    });
  });

  it('prefers the first PATH directory that holds the command', () => {
    const host = windowsHost(['C:\\Windows\\system32\\agent.exe', 'C:\\nodejs\\agent.cmd']);

    assert.equal(planSpawn('agent', [], host).file, 'C:\\Windows\\system32\\agent.EXE');
  });

  it('reads the Path spelling of the variable when PATH is absent', () => {
    const host: SpawnHost = {
      platform: 'win32',
      env: { Path: 'C:\\bin', PATHEXT: '.EXE' },
      isFile: (candidate) => candidate === 'C:\\bin\\agent.EXE',
    };

    assert.equal(planSpawn('agent', [], host).file, 'C:\\bin\\agent.EXE');
  });

  it('falls back to the bare command when nothing on PATH matches', () => {
    const host = windowsHost([]);

    assert.deepEqual(planSpawn('agent', ['--acp'], host), {
      file: 'agent',
      args: ['--acp'],
      windowsVerbatimArguments: false,
    });
  });
});
