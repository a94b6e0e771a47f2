import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loggingGit, summary, useShadowStore, write } from './support/shadowStore';

/**
 * A turn's change list is made as the turn ends, while its answer is still on its way to the page: each git
 * process it runs is CPU the answer waits for on a machine with few cores. It runs none for a turn that
 * changed nothing, and reads each checkpoint's commit message once, not once for each list it names.
 */
describe("checkpoints: a turn's change list runs only the git it needs", function () {
  this.timeout(60_000);
  const fixture = useShadowStore();
  let log: string;

  async function openStore() {
    const logging = loggingGit(fixture.root);
    log = logging.log;
    return fixture.openStore({ git: logging.git });
  }

  /** The git commands run since the last call, without the options every run has (`-c name=value`). */
  function gitSince(): string[] {
    const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    fs.writeFileSync(log, '');
    return lines.map((line) => line.replace(/^--no-optional-locks( -c \S+)* /, ''));
  }

  it('a turn that changed nothing ends on the checkpoint it began with, and listing that runs no git', async () => {
    write(fixture.workspace, { 'a.txt': 'one\n' });
    const store = await openStore();
    const before = await store.create();
    const after = await store.create();
    assert.equal(after, before, 'nothing changed: the same checkpoint');
    gitSince();
    assert.deepEqual(await store.changes(before, after), []);
    assert.deepEqual(gitSince(), []);
  });

  it("reads each checkpoint's commit message once, and not again for the same two checkpoints", async () => {
    write(fixture.workspace, { 'a.txt': 'one\n' });
    const store = await openStore();
    const before = await store.create();
    write(fixture.workspace, { 'a.txt': 'two\n', 'b.txt': 'new\n' });
    const after = await store.create();
    gitSince();
    const listed = summary(await store.changes(before, after), fixture.workspace);
    assert.deepEqual(listed, ['modified a.txt +1 -1', 'created b.txt +1 -0']);
    const reads = gitSince().filter((line) => line.startsWith('cat-file commit '));
    assert.equal(reads.length, new Set(reads).size, `each commit read once: ${reads.join('; ')}`);
    assert.ok(reads.length <= 2, reads.join('; '));
    assert.deepEqual(summary(await store.changes(before, after), fixture.workspace), listed);
    assert.deepEqual(
      gitSince().filter((line) => line.startsWith('cat-file')),
      [],
      'the second list reads no object again',
    );
  });

  it('still lists a deletion between two checkpoints, and the creation the other way round', async () => {
    write(fixture.workspace, { 'src/a.txt': 'one\n' });
    const store = await openStore();
    const before = await store.create();
    fs.rmSync(path.join(fixture.workspace, 'src', 'a.txt'));
    const after = await store.create();
    assert.notEqual(after, before);
    assert.deepEqual(summary(await store.changes(before, after), fixture.workspace), [
      'deleted src/a.txt +0 -1',
    ]);
    assert.deepEqual(summary(await store.changes(after, before), fixture.workspace), [
      'created src/a.txt +1 -0',
    ]);
  });
});
