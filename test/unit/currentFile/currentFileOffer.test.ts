/**
 * The active editor's file on the composer: which documents are offered (a file on disk inside the
 * workspace only), and the views told of it in their state and as it changes.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Emitter } from '../../../src/core/util/disposable';
import {
  offerableFile,
  type CurrentFileSource,
} from '../../../src/features/currentFile/chat/currentFileSource';
import type { CurrentFile } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { ownedPerTest } from '../../support/ownedPerTest';

const ROOT = path.resolve('/work/project');

function file(fsPath: string, scheme = 'file') {
  return { scheme, fsPath, uri: scheme === 'file' ? pathToFileURL(fsPath).href : `${scheme}:${fsPath}` };
}

describe('the current file offered on the composer', () => {
  it('offers a file on disk inside a workspace folder, by its name', () => {
    const inside = path.join(ROOT, 'src', 'app.ts');
    assert.deepEqual(offerableFile(file(inside), [path.resolve('/elsewhere'), ROOT]), {
      uri: pathToFileURL(inside).href,
      name: 'app.ts',
      kind: 'file',
    });
  });

  it('never offers an untitled or other non-file document, a file outside the workspace, or no workspace', () => {
    const inside = path.join(ROOT, 'src', 'app.ts');
    assert.equal(offerableFile(file('Untitled-1', 'untitled'), [ROOT]), undefined);
    assert.equal(offerableFile(file(inside, 'git'), [ROOT]), undefined);
    assert.equal(offerableFile(file(inside, 'vscode-notebook-cell'), [ROOT]), undefined);
    assert.equal(offerableFile(file(path.resolve('/work/project-other/a.ts')), [ROOT]), undefined);
    assert.equal(offerableFile(file(path.join(ROOT, '..', 'secret.txt')), [ROOT]), undefined);
    assert.equal(offerableFile(file(inside), []), undefined);
    assert.equal(offerableFile(file(ROOT), [ROOT]), undefined);
    assert.equal(offerableFile(undefined, [ROOT]), undefined);
  });

  describe('in the views', () => {
    const owned = ownedPerTest();

    it("is in each view's state and follows the active editor; sent, it goes as an @-mentioned file does", async () => {
      const changed = new Emitter<void>();
      let current: CurrentFile | undefined;
      const source: CurrentFileSource = { current: () => current, onDidChange: changed.event };
      const chat = owned(new ChatHarness({ agents: [testAgent('a')], currentFile: source }));
      const hello = path.join(chat.dir, 'src', 'hello.ts');
      mkdirSync(path.dirname(hello), { recursive: true });
      writeFileSync(hello, 'export const hello = 1;\n');
      current = offerableFile(file(hello), [chat.dir]);
      assert.ok(current);
      await chat.ready();
      const view = chat.view;
      assert.deepEqual(view.of('snapshot').at(-1)?.view.currentFile, current);

      current = undefined;
      changed.fire();
      assert.deepEqual(view.of('current_file').at(-1), { type: 'current_file' });
      current = offerableFile(file(hello), [chat.dir]);
      changed.fire();
      assert.deepEqual(view.of('current_file').at(-1), { type: 'current_file', file: current });

      // The composer sends it among the attachments: the agent gets the file's text, as for an @-mention.
      await chat.controller.handleMessage({ type: 'send', text: 'explain', attachments: [current!] });
      const entries = () => chat?.controller.viewState().chat?.thread.entries ?? [];
      await until(() => entries().some((entry) => entry.kind === 'agent'), 'the echo');
      const reply = entries().find((entry) => entry.kind === 'agent');
      assert.equal(
        reply && 'text' in reply ? reply.text : '',
        `You said: explain\n- resource ${current!.uri} (24 chars)`,
      );
      changed.dispose();
    });
  });
});
