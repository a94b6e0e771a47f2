import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { summary, userGit, useShadowStore, write } from './support/shadowStore';

describe('checkpoints: shadow git store', function () {
  this.timeout(60_000);
  const fixture = useShadowStore();
  const openStore = fixture.openStore.bind(fixture);

  it('lists created, modified and deleted files with their line counts', async () => {
    write(fixture.workspace, {
      'a.txt': 'one\ntwo\nthree\n',
      'b.txt': 'gone\nsoon\n',
      'src/keep.ts': 'same\n',
    });
    const { store, checkpoint: before } = await fixture.checkpointed();
    write(fixture.workspace, { 'a.txt': 'one\nTWO\nthree\nfour\n', 'src/new.ts': 'x\ny\n' });
    rmSync(path.join(fixture.workspace, 'b.txt'));

    const changes = await store.changes(before);

    assert.deepEqual(summary(changes, fixture.workspace), [
      'modified a.txt +2 -1',
      'deleted b.txt +0 -2',
      'created src/new.ts +2 -0',
    ]);
    assert.ok(changes.every((change) => change.folder === fixture.workspace));
    assert.equal(changes[2]?.path, path.join(fixture.workspace, 'src', 'new.ts'));
  });

  it('answers a checkpoint of an unchanged folder with the newest one, and a new one after a change', async () => {
    write(fixture.workspace, { 'a.txt': 'a\n' });
    const { store, checkpoint: first } = await fixture.checkpointed();
    assert.equal(await store.create(), first);
    write(fixture.workspace, { 'a.txt': 'b\n' });
    const second = await store.create();
    assert.notEqual(second, first);
    write(fixture.workspace, { 'a.txt': 'a\n' });
    // The first one's content again: a commit of its own, or the very same one within the same second.
    const third = await store.create();
    assert.deepEqual(summary(await store.changes(second, third), fixture.workspace), [
      'modified a.txt +1 -1',
    ]);
  });

  it('shows a rename as a deletion plus a creation', async () => {
    write(fixture.workspace, { 'old/name.txt': 'content\n' });
    const { store, checkpoint: before } = await fixture.checkpointed();
    mkdirSync(path.join(fixture.workspace, 'new'));
    renameSync(
      path.join(fixture.workspace, 'old', 'name.txt'),
      path.join(fixture.workspace, 'new', 'name.txt'),
    );

    assert.deepEqual(summary(await store.changes(before), fixture.workspace), [
      'created new/name.txt +1 -0',
      'deleted old/name.txt +0 -1',
    ]);
  });

  it('reads back the exact bytes: CRLF, no final newline, non-UTF-8, despite text=auto attributes', async () => {
    const crlf = Buffer.from('line one\r\nline two\r\n');
    const noNewline = Buffer.from('no newline at the end');
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x80, 0x0a]);
    write(fixture.workspace, {
      '.gitattributes': '* text=auto eol=lf\n*.txt ident\n',
      'crlf.txt': crlf,
      'plain.txt': noNewline,
      'latin1.txt': latin1,
    });
    const { store, checkpoint } = await fixture.checkpointed();
    write(fixture.workspace, {
      'crlf.txt': 'changed\n',
      'plain.txt': 'changed\n',
      'latin1.txt': 'changed\n',
      'later.txt': 'x',
    });
    rmSync(path.join(fixture.workspace, '.gitattributes'));

    assert.deepEqual(
      await store.read(checkpoint, path.join(fixture.workspace, 'crlf.txt')),
      new Uint8Array(crlf),
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(fixture.workspace, 'plain.txt')),
      new Uint8Array(noNewline),
    );
    assert.deepEqual(
      await store.read(checkpoint, path.join(fixture.workspace, 'latin1.txt')),
      new Uint8Array(latin1),
    );
    assert.equal(
      await store.read(checkpoint, path.join(fixture.workspace, 'later.txt')),
      undefined,
      'created later',
    );
    assert.equal(
      await store.read(checkpoint, path.join(fixture.root, 'outside.txt')),
      undefined,
      'outside the folders',
    );
    const crlfChange = (await store.changes(checkpoint)).find((change) => change.path.endsWith('crlf.txt'));
    assert.deepEqual([crlfChange?.added, crlfChange?.removed], [1, 2], 'CRLF lines were kept as they were');
  });

  it('compares two checkpoints, and ids still work after the store is reopened', async () => {
    write(fixture.workspace, { 'a.txt': '1\n' });
    const { store, checkpoint: first } = await fixture.checkpointed();
    write(fixture.workspace, { 'a.txt': '1\n2\n' });
    const second = await store.create();
    write(fixture.workspace, { 'b.txt': 'later\n' });
    store.dispose();

    const reopened = await openStore();
    assert.deepEqual(summary(await reopened.changes(first, second), fixture.workspace), [
      'modified a.txt +1 -0',
    ]);
    assert.deepEqual(summary(await reopened.changes(second), fixture.workspace), ['created b.txt +1 -0']);
    assert.deepEqual(
      await reopened.read(first, path.join(fixture.workspace, 'a.txt')),
      new Uint8Array(Buffer.from('1\n')),
    );
    await assert.rejects(() => store.create(), /closed/);
  });

  it("honours .gitignore files (nested too) and the fixture.workspace repository's info/exclude", async () => {
    userGit(fixture.workspace, 'init', '--quiet');
    write(fixture.workspace, {
      '.gitignore': '*.log\nbuild/\n',
      'sub/.gitignore': 'secret.txt\n',
      '.git/info/exclude': 'local-only/\n',
      'app.log': 'a\n',
      'build/out.js': 'b\n',
      'sub/secret.txt': 'c\n',
      'sub/visible.txt': 'd\n',
      'local-only/notes.md': 'e\n',
    });
    const { store, checkpoint } = await fixture.checkpointed();
    write(fixture.workspace, {
      'app.log': 'changed\n',
      'build/out.js': 'changed\n',
      'sub/secret.txt': 'changed\n',
      'local-only/notes.md': 'changed\n',
      'local-only/more.md': 'new\n',
      'sub/visible.txt': 'changed\n',
    });

    assert.deepEqual(summary(await store.changes(checkpoint), fixture.workspace), [
      'modified sub/visible.txt +1 -1',
    ]);
    assert.equal(await store.read(checkpoint, path.join(fixture.workspace, 'sub', 'secret.txt')), undefined);
  });

  it('skips huge files and large binary files, keeps small binary files', async () => {
    const bounds = { maxFileBytes: 64 * 1024, maxBinaryBytes: 16 * 1024 };
    const binary = (size: number, fill: number): Buffer => Buffer.alloc(size, fill).fill(0, 10, 11);
    write(fixture.workspace, {
      'huge.txt': 'x'.repeat(100 * 1024),
      'big.bin': binary(32 * 1024, 1),
      'large-text.txt': 'y\n'.repeat(12 * 1024),
      'small.bin': binary(1024, 2),
      'grows.txt': 'small\n',
    });
    const { store, checkpoint } = await fixture.checkpointed(bounds);
    write(fixture.workspace, {
      'huge.txt': 'z'.repeat(100 * 1024),
      'big.bin': binary(32 * 1024, 3),
      'large-text.txt': 'y\n'.repeat(12 * 1024 + 1),
      'small.bin': binary(1024, 4),
      'grows.txt': 'g'.repeat(100 * 1024),
    });

    assert.deepEqual(summary(await store.changes(checkpoint), fixture.workspace), [
      'modified large-text.txt +1 -0',
      'modified small.bin +0 -0 binary',
    ]);
    assert.equal(await store.read(checkpoint, path.join(fixture.workspace, 'huge.txt')), undefined);
    assert.equal(await store.read(checkpoint, path.join(fixture.workspace, 'big.bin')), undefined);
    assert.deepEqual(
      await store.read(checkpoint, path.join(fixture.workspace, 'grows.txt')),
      new Uint8Array(Buffer.from('small\n')),
      'a file that grew past the bound keeps its last snapshot',
    );

    write(fixture.workspace, { 'huge.txt': 'small again\n' });
    const huge = (await store.changes(checkpoint)).find((change) => change.path.endsWith('huge.txt'));
    assert.deepEqual(
      { kind: huge?.kind, unrecorded: huge?.unrecorded },
      { kind: 'modified', unrecorded: true },
      'not "created": it was there, only too large to keep — listed, its earlier bytes unknown',
    );
    const later = await store.create();
    assert.deepEqual(
      await store.read(later, path.join(fixture.workspace, 'huge.txt')),
      new Uint8Array(Buffer.from('small again\n')),
    );
  });

  it('a skipped file with wildcards in its name excludes only itself; odd names are listed as they are', async () => {
    const huge = 'x'.repeat(70 * 1024);
    write(fixture.workspace, {
      'assets/big [1] *.txt': huge,
      '#hash !bang.txt': huge,
      'assets/big 1 a.txt': 'small\n',
      'assets/big [1] b.txt': 'small\n',
      'café/ünïcödé.txt': 'small\n',
    });
    const { store, checkpoint } = await fixture.checkpointed({
      maxFileBytes: 64 * 1024,
      maxBinaryBytes: 16 * 1024,
    });
    write(fixture.workspace, {
      'assets/big [1] *.txt': `${huge}more`,
      '#hash !bang.txt': `${huge}more`,
      'assets/big 1 a.txt': 'changed\n',
      'assets/big [1] b.txt': 'changed\n',
      'café/ünïcödé.txt': 'changed\n',
    });

    assert.deepEqual(summary(await store.changes(checkpoint), fixture.workspace), [
      'modified assets/big 1 a.txt +1 -1',
      'modified assets/big [1] b.txt +1 -1',
      'modified café/ünïcödé.txt +1 -1',
    ]);
  });

  it('lists and reads back files whose names hold a newline, a CR and quotes', async () => {
    const odd = ['new\nline.txt', 'carriage\rreturn.txt', 'say "hi" \'there\'.txt'];
    write(fixture.workspace, Object.fromEntries(odd.map((name, i) => [name, `before ${i}\n`])));
    const { store, checkpoint } = await fixture.checkpointed();
    write(fixture.workspace, Object.fromEntries(odd.map((name) => [name, 'after\n'])));

    assert.deepEqual(
      summary(await store.changes(checkpoint), fixture.workspace).sort(),
      odd.map((name) => `modified ${name} +1 -1`).sort(),
    );
    for (const [i, name] of odd.entries()) {
      const bytes = await store.read(checkpoint, path.join(fixture.workspace, name));
      assert.equal(Buffer.from(bytes ?? []).toString('utf8'), `before ${i}\n`, JSON.stringify(name));
    }
    assert.equal(await store.read(checkpoint, path.join(fixture.workspace, 'no\nsuch.txt')), undefined);
  });

  it("takes checkpoints when a FIFO stands at the fixture.workspace repository's info/exclude (read without blocking)", async () => {
    userGit(fixture.workspace, 'init', '--quiet');
    rmSync(path.join(fixture.workspace, '.git', 'info', 'exclude'), { force: true });
    mkdirSync(path.join(fixture.workspace, '.git', 'info'), { recursive: true });
    execFileSync('mkfifo', [path.join(fixture.workspace, '.git', 'info', 'exclude')]);
    write(fixture.workspace, { 'a.txt': 'a\n' });
    const { store, checkpoint } = await fixture.checkpointed();
    write(fixture.workspace, { 'a.txt': 'b\n' });
    assert.deepEqual(summary(await store.changes(checkpoint), fixture.workspace), ['modified a.txt +1 -1']);
  });

  it('leaves symbolic links out of the snapshot (restoring a link as a file would be wrong), but lists them with their targets', async () => {
    write(fixture.workspace, { 'target.txt': 'target\n' });
    symlinkSync('target.txt', path.join(fixture.workspace, 'link.txt'));
    const { store, checkpoint } = await fixture.checkpointed();
    rmSync(path.join(fixture.workspace, 'link.txt'));
    symlinkSync('elsewhere.txt', path.join(fixture.workspace, 'link.txt'));
    write(fixture.workspace, { 'target.txt': 'changed\n' });

    const retargeted = await store.changes(checkpoint);
    assert.deepEqual(summary(retargeted, fixture.workspace), [
      'modified link.txt +0 -0',
      'modified target.txt +1 -1',
    ]);
    assert.deepEqual(
      { link: retargeted[0]?.link, unrecorded: retargeted[0]?.unrecorded },
      { link: { target: 'elsewhere.txt', outside: false }, unrecorded: true },
      'pointed elsewhere: listed as the link it is now; what it named before is not put back by Undo',
    );
    assert.equal(await store.read(checkpoint, path.join(fixture.workspace, 'link.txt')), undefined);
    rmSync(path.join(fixture.workspace, 'link.txt'));
    write(fixture.workspace, { 'link.txt': 'now a file\n' });
    const changes = await store.changes(checkpoint);
    assert.deepEqual(
      summary(changes, fixture.workspace),
      ['modified link.txt +1 -0', 'modified target.txt +1 -1'],
      'a link replaced by a file is not "created": Undo would delete it and the link would be lost',
    );
    assert.equal(changes[0]?.unrecorded, true, 'its earlier state is not known: Undo leaves it');
  });

  it('a file deleted and recreated: unchanged when the bytes are the same, modified when not', async () => {
    write(fixture.workspace, { 'file.txt': 'original\n' });
    const { store, checkpoint: first } = await fixture.checkpointed();
    rmSync(path.join(fixture.workspace, 'file.txt'));
    const whileDeleted = await store.create();
    write(fixture.workspace, { 'file.txt': 'original\n' });

    assert.deepEqual(summary(await store.changes(first), fixture.workspace), []);
    assert.deepEqual(summary(await store.changes(whileDeleted), fixture.workspace), [
      'created file.txt +1 -0',
    ]);
    assert.deepEqual(summary(await store.changes(first, whileDeleted), fixture.workspace), [
      'deleted file.txt +0 -1',
    ]);

    write(fixture.workspace, { 'file.txt': 'recreated differently\n' });
    assert.deepEqual(summary(await store.changes(first), fixture.workspace), ['modified file.txt +1 -1']);
  });
});
