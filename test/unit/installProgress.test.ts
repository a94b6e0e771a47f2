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
  it('says how much is on disk against a finished install, what it does, and for how long', () => {
    const line = (building: string[], mb = 212) =>
      formatInstallProgress({ label: 'code-server', mb, expectedMb: 620, building, elapsedMs: 80_400 });
    assert.equal(line([]), 'code-server: 212 of ~620 MB (34 %) · downloading and unpacking · 1 min 20 s');
    assert.equal(
      line(['@vscode/spdlog', 'kerberos']),
      'code-server: 212 of ~620 MB (34 %) · compiling @vscode/spdlog, kerberos · 1 min 20 s',
    );
    assert.match(line(['a', 'b', 'c', 'd', 'e']), /compiling a, b, c and 2 more/);
    // Past the estimate it is not "done" (npm says when it is): at most 99 %.
    assert.match(line([], 700), /700 of ~620 MB \(99 %\)/);
    assert.equal(formatDuration(45_200), '45 s');
    assert.equal(formatDuration(185_000), '3 min 05 s');
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
  it('reports the disk it grows to and a native build running in it, then stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acp-install-progress-'));
    const moduleDir = join(dir, 'node_modules', 'kerberos');
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, 'blob'), Buffer.alloc(3 * 1024 * 1024, 1));
    // A stand-in for a compiler at work: a process named `make` whose working folder is the module's.
    const builder = spawn('bash', ['-c', 'exec -a make sleep 30'], { cwd: moduleDir, stdio: 'ignore' });
    const lines: string[] = [];
    const progress = watchInstall({
      dir,
      label: 'code-server',
      expectedMb: 10,
      say: (l) => lines.push(l),
      everyMs: 50,
    });
    try {
      await until(
        () => lines.some((line) => line.includes('compiling kerberos')),
        'a line naming the build',
        10_000,
      );
      assert.match(
        lines.at(-1) ?? '',
        /^code-server: [34] of ~10 MB \([34]\d %\) · compiling kerberos · \d+ s$/,
      );
    } finally {
      progress.stop();
      builder.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    const count = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(lines.length, count, 'no line after stop()');
  });
});
