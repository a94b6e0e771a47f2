import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceFile, writeFailureReason } from '../../../src/core/journal/journalFiles';
import { HeldFileError, removeWhenFree, renameWhenFree } from '../../../src/core/platform/heldFiles';
import { platformFor, type Disk, type Platform } from '../../../src/core/platform/platform';

/**
 * This machine's disk with Windows' sharing rule: while another program holds a file open without
 * FILE_SHARE_DELETE (an antivirus scan, the indexer), renaming over it or deleting it fails —
 * EPERM for a rename, EBUSY for a delete — until it lets go.
 */
class SharingDisk implements Disk {
  readonly held = new Set<string>();
  private readonly real = platformFor('linux').disk;

  lstat = (file: string) => this.real.lstat(file);
  stat = (file: string) => this.real.stat(file);
  readlink = (file: string) => this.real.readlink(file);
  realpath = (file: string) => this.real.realpath(file);

  async rename(from: string, to: string): Promise<void> {
    this.refuseIfHeld('EPERM', from, to);
    await rename(from, to);
  }

  async rm(file: string, options: { readonly force: boolean }): Promise<void> {
    this.refuseIfHeld('EBUSY', file);
    await rm(file, options);
  }

  private refuseIfHeld(code: string, ...files: string[]): void {
    if (files.some((file) => this.held.has(path.resolve(file)))) {
      throw Object.assign(new Error(`${code}: operation not permitted, ${files.join(' -> ')}`), { code });
    }
  }
}

describe('platform: renames and deletes while another program holds the file', () => {
  let dir: string;
  let disk: SharingDisk;
  /** The pauses taken; the program holding the file lets go once `releaseAfter` of them passed. */
  let pauses: number[];
  let releaseAfter: number;

  const on = (os: Platform['os']): Platform =>
    platformFor(os, {
      disk,
      sleep: async (ms) => {
        pauses.push(ms);
        if (pauses.length >= releaseAfter) {
          disk.held.clear();
        }
      },
    });

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'acp-held-'));
    disk = new SharingDisk();
    pauses = [];
    releaseAfter = Number.POSITIVE_INFINITY;
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function file(name: string, text: string): string {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  }

  it('on Windows, renames over a held file once it is let go, pausing longer each time', async () => {
    const target = file('journal.jsonl', 'old');
    const temp = file('journal.tmp', 'new');
    disk.held.add(target);
    releaseAfter = 4;
    await renameWhenFree(temp, target, { platform: on('win32') });
    assert.equal(readFileSync(target, 'utf8'), 'new');
    assert.deepEqual(pauses, [10, 20, 40, 80]);
  });

  it('on Windows, gives up after the bound with a clear error, both files as they were', async () => {
    const target = file('journal.jsonl', 'old');
    const temp = file('journal.tmp', 'new');
    disk.held.add(target);
    await assert.rejects(renameWhenFree(temp, target, { platform: on('win32'), waitMs: 1000 }), (error) => {
      assert.ok(error instanceof HeldFileError);
      assert.match(error.message, /held open by another program \(EPERM\); gave up after 1000 ms/);
      return true;
    });
    assert.equal(
      pauses.reduce((sum, ms) => sum + ms, 0),
      1000,
    );
    assert.equal(readFileSync(target, 'utf8'), 'old');
    assert.equal(readFileSync(temp, 'utf8'), 'new');
  });

  it('on Windows, deletes a held file once it is let go', async () => {
    const target = file('blob', 'x');
    disk.held.add(target);
    releaseAfter = 2;
    await removeWhenFree(target, { platform: on('win32') });
    assert.equal(existsSync(target), false);
  });

  it('on macOS and Linux, where files are never held, takes EPERM at its word at once', async () => {
    for (const system of ['darwin', 'linux'] as const) {
      const target = file('journal.jsonl', 'old');
      const temp = file('journal.tmp', 'new');
      disk.held.add(target);
      await assert.rejects(renameWhenFree(temp, target, { platform: on(system) }), { code: 'EPERM' });
      assert.deepEqual(pauses, []);
      disk.held.clear();
    }
  });

  describe("the journal's compaction (replaceFile)", () => {
    it('replaces a journal another program holds once it lets go, keeping the old one as .prev', async () => {
      const journal = file('chat.jsonl', 'old line\n');
      disk.held.add(journal);
      releaseAfter = 3;
      await replaceFile(journal, 'snapshot\n', { platform: on('win32') });
      assert.equal(readFileSync(journal, 'utf8'), 'snapshot\n');
      assert.equal(readFileSync(`${journal}.prev`, 'utf8'), 'old line\n');
      assert.deepEqual(readdirSync(dir).sort(), ['chat.jsonl', 'chat.jsonl.prev']);
    });

    it('leaves a journal held for too long as it was, removes its temp file, and says why', async () => {
      const journal = file('chat.jsonl', 'old line\n');
      disk.held.add(journal);
      const failure = await replaceFile(journal, 'snapshot\n', { platform: on('win32'), waitMs: 200 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      assert.ok(failure instanceof HeldFileError);
      assert.match(writeFailureReason(failure), /another program keeps its file open/);
      assert.equal(readFileSync(journal, 'utf8'), 'old line\n');
      assert.deepEqual(readdirSync(dir).sort(), ['chat.jsonl', 'chat.jsonl.prev']);
    });
  });
});
