import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  formatDuration,
  formatInstallProgress,
  packageOfFolder,
  watchInstall,
} from '../../scripts/installProgress.mjs';
import { until } from '../support/until';

describe('npm start: the progress of a long install', () => {
  it('says how much is on disk against a finished install while it downloads, and for how long', () => {
    const line = (mb: number) =>
      formatInstallProgress({
        label: 'code-server',
        mb,
        expectedMb: 620,
        building: [],
        built: 0,
        expectedBuilds: 8,
        elapsedMs: 40_400,
      });
    assert.equal(line(212), 'code-server: 212 of ~620 MB (34 %) · downloading and unpacking · 40 s');
    // Past the estimate it is not "done" (npm says when it is): at most 99 %.
    assert.match(line(700), /700 of ~620 MB \(99 %\)/);
    assert.equal(formatDuration(45_200), '45 s');
    assert.equal(formatDuration(185_000), '3 min 05 s');
  });

  it('says which native modules it compiles, of how many, once it compiles', () => {
    const line = (building: string[], built: number) =>
      formatInstallProgress({
        label: 'code-server',
        mb: 594,
        expectedMb: 617,
        building,
        built,
        expectedBuilds: 8,
        elapsedMs: 130_000,
      });
    assert.equal(
      line(['@vscode/spdlog'], 3),
      'code-server: compiling @vscode/spdlog (native module 3 of ~8) · 2 min 10 s',
    );
    assert.match(
      line(['a', 'b', 'c', 'd', 'e'], 6),
      /compiling a, b, c and 2 more \(native module 6 of ~8\)/,
    );
    // More than measured here: the count says so rather than "9 of ~8".
    assert.match(line(['x'], 9), /native module 9 of ~9/);
  });

  it('names the package a build runs in by its folder', () => {
    assert.equal(
      packageOfFolder('/x/node_modules/code-server/lib/vscode/node_modules/kerberos/build'),
      'kerberos',
    );
    assert.equal(packageOfFolder('/x/node_modules/@vscode/spdlog'), '@vscode/spdlog');
    assert.equal(packageOfFolder('/x/build'), undefined);
  });

  // Linux, as the install it watches (tools.mjs installs linux-x64 binaries): it reads /proc.
  it('reports the disk it grows to, then a native build running in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-install-progress-'));
    const moduleDir = join(dir, 'node_modules', 'kerberos');
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, 'blob'), Buffer.alloc(3 * 1024 * 1024, 1));
    const lines: string[] = [];
    const progress = watchInstall({
      dir,
      label: 'code-server',
      expectedMb: 10,
      expectedBuilds: 8,
      say: (line) => lines.push(line),
      everyMs: 50,
    });
    let builder: ReturnType<typeof spawn> | undefined;
    try {
      await until(() => lines.length > 0, 'a first line', 10_000);
      assert.match(
        lines[0] ?? '',
        /^code-server: [34] of ~10 MB \([34]\d %\) · downloading and unpacking · \d+ s$/,
      );
      // A stand-in for a compiler at work: a process named `make` whose working folder is the module's.
      builder = spawn('bash', ['-c', 'exec -a make sleep 30'], { cwd: moduleDir, stdio: 'ignore' });
      await until(() => lines.some((line) => line.includes('compiling')), 'a line naming the build', 10_000);
      assert.match(lines.at(-1) ?? '', /^code-server: compiling kerberos \(native module 1 of ~8\) · \d+ s$/);
    } finally {
      progress.stop();
      builder?.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
