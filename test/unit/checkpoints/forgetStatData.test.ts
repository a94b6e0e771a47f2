import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { forgetStatData } from '../../../src/features/checkpoints/core/forgetStatData';

describe('checkpoints: forgetting the stat data of files just staged', function () {
  this.timeout(60_000);
  let repo: string;
  const git = async (args: readonly string[], input?: string): Promise<string> =>
    execFileSync('git', args, { cwd: repo, encoding: 'utf8', input: input ?? '', maxBuffer: 64 << 20 });

  beforeEach(async () => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'acp-forget-stat-'));
    await git(['init', '--quiet']);
    // Written "an hour ago", so git's racy-entry check does not already flag them.
    const past = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 700; i++) {
      writeFileSync(path.join(repo, `file ${i}.txt`), `${i}\n`);
      utimesSync(path.join(repo, `file ${i}.txt`), past, past);
    }
    await git(['add', '-A']);
    assert.equal(await git(['diff-files', '--name-only']), '', 'all clean to begin with');
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  for (const count of [3, 600]) {
    it(`the ${count} files named, and only they, look changed to git's next stat check; their contents stay`, async () => {
      const names = Array.from({ length: count }, (_, i) => `file ${i}.txt`);
      const before = await git(['write-tree']);
      await forgetStatData(git, names);
      const listed = (await git(['diff-files', '--name-only', '-z'])).split('\0').filter(Boolean);
      assert.deepEqual(listed.sort(), [...names].sort());
      assert.equal(await git(['write-tree']), before, 'the same contents are staged');
    });
  }
});
