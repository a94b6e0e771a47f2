import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import type { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { gitChangeReview } from '../support/oneStore';

/**
 * Restore's confirmation says what the restore will then do, file by file: a file that may have existed
 * before the turn (it was ignored then) is "left alone", never "deleted again", and the count of files
 * that change leaves it out.
 */
describe('restore: the confirmation says what will actually happen', () => {
  let chat: ChatHarness | undefined;
  let port: NodeWorkspaceChanges;

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  const file = (name: string): string => path.join((chat as ChatHarness).dir, name);
  const turns = (): readonly TurnMessage[] => chat?.controller.viewState().chat?.thread.turns ?? [];

  it('un-ignored files the turn did not create are listed as left alone, and are', async () => {
    chat = new ChatHarness({
      agents: [testAgent('a')],
      changes: (dir, storage) => gitChangeReview(dir, storage, (made) => (port = made)),
    });
    writeFileSync(file('.gitignore'), '.env\nbuild/\n');
    writeFileSync(file('.env'), 'TOKEN=mine\n');
    mkdirSync(file('build'));
    writeFileSync(file('build/bundle.js'), 'bundle\n');
    writeFileSync(file('a.txt'), 'v0\n');
    await chat.ready();
    await chat.send('own write a.txt v1 ; write .gitignore node_modules/ ; write new.txt made');
    await until(() => turns()[0]?.changes?.live === false, 'the final change list');
    const kinds = Object.fromEntries(
      (turns()[0]?.changes?.files ?? []).map((f) => [
        f.relativePath,
        `${f.kind}${f.beforeUnknown ? '?' : ''}`,
      ]),
    );
    assert.deepEqual(kinds, {
      '.env': 'created?',
      '.gitignore': 'modified',
      'a.txt': 'modified',
      'build/bundle.js': 'created?',
      'new.txt': 'created',
    });

    await chat.controller.handleMessage({ type: 'restore_checkpoint', turnId: turns()[0]?.id as string });
    const [asked] = port.confirmations;
    assert.match(asked?.message ?? '', /3 files will change\. 2 will be left as they are\./);
    const lines = (asked?.detail ?? '').split('\n');
    assert.deepEqual(lines, [
      '.gitignore (restored)',
      'a.txt (restored)',
      'new.txt (deleted again)',
      '.env (left alone: it was ignored (by .gitignore) before the turn, so it may have existed then — it is not deleted)',
      'build/bundle.js (left alone: it was ignored (by .gitignore) before the turn, so it may have existed then — it is not deleted)',
    ]);
    // What it said is what it did.
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'v0\n');
    assert.equal(readFileSync(file('.gitignore'), 'utf8'), '.env\nbuild/\n');
    assert.equal(existsSync(file('new.txt')), false);
    assert.equal(readFileSync(file('.env'), 'utf8'), 'TOKEN=mine\n');
    assert.equal(readFileSync(file('build/bundle.js'), 'utf8'), 'bundle\n');
  });
});
