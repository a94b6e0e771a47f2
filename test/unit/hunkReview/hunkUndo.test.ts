import { strict as assert } from 'node:assert';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import type { TurnMessage } from '../../../src/protocol';
import type { FileVersions } from '../../../src/features/hunkReview/core/hunks';
import type { ChatHarness } from '../support/chatHarness';
import { until } from '../support/chatHarness';
import type { NodeWorkspaceChanges } from '../support/nodeWorkspaceChanges';
import { reviewedChat } from '../support/oneStore';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BEFORE = Buffer.concat([BOM, Buffer.from('one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix')]);
const AFTER = Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nnew\r\nfive\r\nSIX')]);

describe('hunk review: Keep / Undo of one hunk through the change card’s Undo, byte-exact', () => {
  let chat: ChatHarness | undefined;
  let port: NodeWorkspaceChanges;
  let outside: string;

  beforeEach(() => {
    outside = mkdtempSync(path.join(os.tmpdir(), 'acp-hunks-outside-'));
  });

  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
    rmSync(outside, { recursive: true, force: true });
  });

  function file(name: string): string {
    return path.join((chat as ChatHarness).dir, name);
  }

  function turn(): TurnMessage | undefined {
    return chat?.controller.viewState().chat?.thread.turns.at(-1);
  }

  function row(name: string): string {
    const found = turn()?.changes?.files.find((f) => f.relativePath === name);
    return found ? `+${found.added} -${found.removed} ${found.decision}` : 'none';
  }

  /** A shell-writing agent's turn: it copies prepared bytes (from outside the workspace) over `names`. */
  async function turnWriting(files: Record<string, { before: Buffer; after: Buffer }>): Promise<void> {
    chat = reviewedChat((made) => (port = made));
    const steps: string[] = [];
    for (const [name, { before, after }] of Object.entries(files)) {
      mkdirSync(path.dirname(file(name)), { recursive: true });
      writeFileSync(file(name), before);
      const source = path.join(outside, name.replace(/\//g, '_'));
      writeFileSync(source, after);
      steps.push(`shell cp ${source} ${name}`);
    }
    await chat.ready();
    await chat.send(`own ${steps.join(' ; ')}`);
    await until(() => turn()?.changes?.live === false, 'the final change list').catch((e) => {
      throw new Error(`${e} ${chat?.transcript()} ${JSON.stringify(turn())}`);
    });
    await until(() => turn()?.changes?.files.length === Object.keys(files).length, 'every file listed');
  }

  async function versions(name: string): Promise<FileVersions> {
    const review = await chat!.hunks!.review(file(name));
    assert.ok(review && !('refused' in review), `${name} is split into hunks`);
    return review;
  }

  it('undoes the middle of three hunks: every other byte as the agent left it; the card counts again', async () => {
    await turnWriting({ 't.txt': { before: BEFORE, after: AFTER } });
    assert.equal(row('t.txt'), '+3 -2 pending');
    assert.equal((await versions('t.txt')).hunks.length, 3);
    await chat!.hunks!.undo(file('t.txt'), 1);
    assert.ok(
      readFileSync(file('t.txt')).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX')]),
      ),
    );
    assert.equal(row('t.txt'), '+2 -2 pending');
    assert.equal((await versions('t.txt')).hunks.length, 2);
  });

  it('half kept over two files: the bytes after are the expected mix, and the card marks both decided', async () => {
    await turnWriting({
      'a.txt': { before: BEFORE, after: AFTER },
      'b.txt': { before: Buffer.from('x\ny\n'), after: Buffer.from('x\ny\nz') },
    });
    await chat!.hunks!.keep(file('a.txt'), 0);
    await chat!.hunks!.undo(file('a.txt'), 0); // "new" (now the first hunk left)
    await chat!.hunks!.keep(file('a.txt'), 0); // "SIX": the last hunk, so the file is kept
    await chat!.hunks!.undo(file('b.txt'), 0);
    assert.ok(
      readFileSync(file('a.txt')).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX')]),
      ),
    );
    assert.ok(readFileSync(file('b.txt')).equals(Buffer.from('x\ny\n')));
    assert.equal(row('a.txt'), '+2 -2 kept');
    assert.equal(row('b.txt'), '+1 -0 undone');
    assert.deepEqual(chat!.hunks!.files(), []);
  });

  it('keeps one hunk and undoes the last one left: the file is the mix, and the card marks it kept', async () => {
    await turnWriting({ 't.txt': { before: BEFORE, after: AFTER } });
    await chat!.hunks!.keep(file('t.txt'), 0);
    await chat!.hunks!.keep(file('t.txt'), 0);
    await chat!.hunks!.undo(file('t.txt'), 0);
    assert.ok(
      readFileSync(file('t.txt')).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nnew\r\nfive\r\nsix')]),
      ),
    );
    assert.equal(row('t.txt'), '+2 -1 kept');
  });

  it('never writes through a folder that became a link to outside: the bytes there are unchanged', async () => {
    await turnWriting({ 'sub/t.txt': { before: BEFORE, after: AFTER } });
    // The folder is swapped for a link to an outside folder holding the same bytes.
    const elsewhere = path.join(outside, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 't.txt'), AFTER);
    renameSync(file('sub'), path.join(outside, 'moved-sub'));
    symlinkSync(elsewhere, file('sub'));
    await chat!.hunks!.undo(file('sub/t.txt'), 1);
    assert.ok(readFileSync(path.join(elsewhere, 't.txt')).equals(AFTER), 'the outside file is unchanged');
    assert.match(turn()?.changes?.files[0]?.problem ?? '', /Left alone/);
    assert.equal(row('sub/t.txt'), '+3 -2 pending');
  });

  it('asks first, naming it, while another chat’s turn runs on the folder; declined, nothing is written', async () => {
    await turnWriting({ 't.txt': { before: BEFORE, after: AFTER } });
    const a = chat!.controller.viewState().chat?.chatId as string;
    const gate = path.join(outside, 'gate');
    execFileSync('mkfifo', [gate]);
    await chat!.controller.handleMessage({ type: 'new_chat' });
    await chat!.controller.connectActive();
    const bEnded = chat!.send(`own shell cat ${gate}`);
    await until(() => chat!.controller.viewState().chats?.some((c) => c.running) ?? false, 'chat B to run');
    await chat!.controller.handleMessage({ type: 'switch_chat', chatId: a });
    port.answer = false;
    await chat!.hunks!.undo(file('t.txt'), 1);
    assert.ok(
      port.confirmations.at(-1)?.message.includes(`Chat “own shell cat ${gate}” is running on this folder`),
      `chat B is named first: ${port.confirmations.at(-1)?.message}`,
    );
    assert.ok(readFileSync(file('t.txt')).equals(AFTER), 'declined: nothing written');
    await writeFile(gate, 'go\n');
    await bEnded;
  });

  it('asks before saving unsaved text with the undo; declined, nothing is written', async () => {
    await turnWriting({ 't.txt': { before: BEFORE, after: AFTER } });
    port.dirty.add(file('t.txt'));
    port.answer = false;
    await chat!.hunks!.undo(file('t.txt'), 1);
    assert.match(port.confirmations.at(-1)?.message ?? '', /unsaved changes/);
    assert.ok(readFileSync(file('t.txt')).equals(AFTER));
  });

  it('does nothing when the file changed since its hunks were shown', async () => {
    await turnWriting({ 't.txt': { before: BEFORE, after: AFTER } });
    const shown = (await versions('t.txt')).hunks[2]!;
    const edited = Buffer.concat([Buffer.from('zero\r\n'), AFTER]);
    writeFileSync(file('t.txt'), edited);
    await assert.rejects(chat!.hunks!.undo(file('t.txt'), 2, shown), /changed since/);
    assert.ok(readFileSync(file('t.txt')).equals(edited));
  });

  it('leaves a binary file to the card', async () => {
    await turnWriting({ 'b.bin': { before: Buffer.from('a\n'), after: Buffer.from([0x61, 0, 0x0a]) } });
    assert.equal(turn()?.changes?.files[0]?.binary, true);
    assert.equal(await chat!.hunks!.review(file('b.bin')), undefined);
    await assert.rejects(chat!.hunks!.undo(file('b.bin'), 0), /no changes left/);
    assert.ok(readFileSync(file('b.bin')).equals(Buffer.from([0x61, 0, 0x0a])));
  });
});
