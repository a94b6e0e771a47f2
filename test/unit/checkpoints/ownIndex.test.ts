import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ownIndex } from '../../../src/features/checkpoints/core/ownIndex';

describe('checkpoints: each store object’s own index', () => {
  let gitDir: string;

  beforeEach(() => {
    gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-own-index-'));
  });

  afterEach(() => {
    fs.rmSync(gitDir, { recursive: true, force: true });
  });

  it('is seeded from the newest whole index, a closed window’s too, whose files are then removed', async () => {
    // A window that has closed: a real process that ran and exited.
    const closed = spawnSync(process.execPath, ['-e', '']).pid;
    assert.notEqual(closed, process.pid);
    const dir = path.join(gitDir, 'acp-index');
    fs.mkdirSync(dir);
    const at = (name: string, text: string, secondsAgo: number): void => {
      fs.writeFileSync(path.join(dir, name), text);
      const when = new Date(Date.now() - secondsAgo * 1000);
      fs.utimesSync(path.join(dir, name), when, when);
    };
    at(`${process.pid}-900`, 'this process, older', 60);
    at(`${closed}-1`, 'the closed window, newest whole', 10);
    at(`${closed}-2`, 'the closed window, oldest', 120);
    at(`${closed}-3.lock`, 'a lock it left: never whole', 0);
    const mine = await ownIndex(gitDir);
    assert.equal(fs.readFileSync(mine, 'utf8'), 'the closed window, newest whole');
    assert.deepEqual(fs.readdirSync(dir).sort(), [`${process.pid}-900`, path.basename(mine)].sort());
  });
});
