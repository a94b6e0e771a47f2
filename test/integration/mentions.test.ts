/**
 * Issue 11: @-mentions in the real VS Code — the picker's entries from the workspace (files with
 * .gitignore respected and kept current by the watcher, folders, the selection, problems) and what
 * the agent receives for each mention, per its prompt capabilities (the demo agent echoes blocks).
 */
import { strict as assert } from 'node:assert';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpAgentsApi } from '../../src/extension';
import {
  activeThread,
  closeAllEditors,
  DEMO_AGENT_ID,
  eventually,
  freshChat,
  getApi,
  replyOf,
  Settings,
  TempFolder,
  workspaceRoot,
} from './support/harness';

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('mentions: the @ picker and what the agent receives (issue 11)', () => {
  let api: AcpAgentsApi;
  let folder: TempFolder;
  const settings = new Settings();
  let gitignore: string;

  before(async () => {
    api = await getApi();
    gitignore = path.join(workspaceRoot(), '.gitignore');
    assert.equal(existsSync(gitignore), false, 'the sample workspace has no .gitignore of its own');
  });

  beforeEach(async () => {
    // Open editors are offered first: one an earlier suite left open would come before the files asked for.
    await closeAllEditors();
    folder = new TempFolder('mentions');
  });

  afterEach(async () => {
    await closeAllEditors();
    folder.dispose();
    rmSync(gitignore, { force: true });
    await settings.restore();
  });

  const helloPath = (): string => path.join(workspaceRoot(), 'src', 'hello.ts');

  it('offers hello.ts first for "hel", and the src folder', async () => {
    const items = await api.mentions.query('hel', 50);
    assert.deepEqual(items[0], {
      kind: 'file',
      uri: vscode.Uri.file(helloPath()).toString(),
      name: 'hello.ts',
      detail: 'src/hello.ts',
    });
    const folders = (await api.mentions.query('src', 50)).filter((item) => item.kind === 'folder');
    assert.deepEqual(
      folders.map((item) => item.detail),
      ['src'],
    );
  });

  it('picks up new files through the watcher and leaves out what .gitignore lists', async () => {
    const relative = path.basename(folder.path);
    writeFileSync(folder.file('kept-zebra.ts'), 'export {};\n');
    writeFileSync(folder.file('ignored-zebra.ts'), 'export {};\n');
    writeFileSync(gitignore, `# test\n${relative}/ignored-*.ts\n`);
    // A listing started before these writes may still answer once (the watcher marks it stale and the
    // next query lists again): wait for the settled answer, which must list one and leave out the other.
    let last: string[] = [];
    await eventually('kept-zebra.ts listed and ignored-zebra.ts left out (.gitignore)', async () => {
      last = (await api.mentions.query('zebra', 50)).map((item) => item.name);
      return last.includes('kept-zebra.ts') && !last.includes('ignored-zebra.ts');
    }).catch((error: unknown) => {
      throw new Error(`the picker offered: ${last.join(', ')}`, { cause: error });
    });
  });

  it('applies a nested .gitignore with a negation to its own folder, and follows an edit of it', async () => {
    writeFileSync(folder.file('dropped-quokka.secret.ts'), 'export {};\n');
    writeFileSync(folder.file('kept-quokka.secret.ts'), 'export {};\n');
    writeFileSync(folder.file('plain-quokka.ts'), 'export {};\n');
    const nested = folder.file('.gitignore');
    writeFileSync(nested, '*.secret.ts\n!kept-*.secret.ts\n');
    const offered = async (): Promise<string[]> =>
      (await api.mentions.query('quokka', 50))
        .filter((item) => item.kind === 'file')
        .map((item) => item.name)
        .sort();
    let last: string[] = [];
    const settle = (what: string, expected: string[]): Promise<boolean> =>
      eventually(what, async () => {
        last = await offered();
        return JSON.stringify(last) === JSON.stringify(expected);
      }).catch((error: unknown) => {
        throw new Error(`the picker offered: ${last.join(', ')}`, { cause: error });
      });

    await settle('the negation re-includes kept-quokka.secret.ts', [
      'kept-quokka.secret.ts',
      'plain-quokka.ts',
    ]);
    writeFileSync(nested, '*.secret.ts\n');
    await settle('the edited .gitignore hides kept-quokka.secret.ts too', ['plain-quokka.ts']);
  });

  it('offers the selection with its lines, and a file with problems', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(helloPath()));
    editor.selection = new vscode.Selection(1, 0, 2, 10);
    const [first] = await api.mentions.query('', 50);
    assert.deepEqual(first?.kind, 'selection');
    assert.deepEqual(first?.range, { startLine: 2, endLine: 3 });
    const open = (await api.mentions.query('hello', 50)).find((item) => item.kind === 'editor');
    assert.equal(open?.name, 'hello.ts', 'the open editor is offered');

    const collection = vscode.languages.createDiagnosticCollection('mentions-test');
    try {
      const broken = vscode.Uri.file(folder.file('broken.ts'));
      writeFileSync(broken.fsPath, 'const x: string = 1;\n');
      collection.set(broken, [
        new vscode.Diagnostic(
          new vscode.Range(0, 6, 0, 7),
          "Type 'number' is not assignable to type 'string'.",
        ),
      ]);
      const problems = (await api.mentions.query('problems broken', 50)).find(
        (item) => item.kind === 'problems',
      );
      assert.equal(problems?.name, 'Problems in broken.ts');
      assert.deepEqual(api.mentions.problems(broken.toString()), [
        `${vscode.workspace.asRelativePath(broken, false)}:1:7 error Type 'number' is not assignable to type 'string'.`,
      ]);
    } finally {
      collection.dispose();
    }
  });

  async function sendAndReply(
    attachments: Parameters<AcpAgentsApi['chat']['turns']['sendFromView']>[1],
    images: Parameters<AcpAgentsApi['chat']['turns']['sendFromView']>[2] = [],
  ): Promise<string> {
    const before = activeThread(api).turns.length;
    await api.chat.turns.sendFromView('Look at these', attachments, images, [], api.chat.windowSlot);
    const turn = await eventually('the turn to end', () => {
      const turns = activeThread(api).turns;
      return turns.length > before && turns.at(-1)!.status !== 'running' && turns.at(-1)!;
    });
    return replyOf(api, turn.id);
  }

  it('sends mentions as embedded resources to an agent with embeddedContext', async () => {
    await freshChat(api);
    const uri = vscode.Uri.file(helloPath()).toString();
    const text = await vscode.workspace.fs.readFile(vscode.Uri.file(helloPath()));
    const chars = new TextDecoder().decode(text).length;
    const reply = await sendAndReply(
      [
        { kind: 'file', uri, name: 'hello.ts' },
        { kind: 'selection', uri, name: 'Selection', range: { startLine: 2, endLine: 2 } },
        { kind: 'folder', uri: vscode.Uri.file(path.dirname(helloPath())).toString(), name: 'src/' },
      ],
      [{ name: 'shot.png', mimeType: 'image/png', data: PNG_1PX }],
    );
    const line2 = new TextDecoder().decode(text).split('\n')[1] ?? '';
    assert.equal(
      reply,
      [
        'You said: Look at these',
        `- resource ${uri} (${chars} chars)`,
        `- resource ${uri}#L2-2 (${line2.length} chars)`,
        `- resource_link ${vscode.Uri.file(path.dirname(helloPath())).toString()}`,
        `- image image/png (${PNG_1PX.length} bytes base64)`,
      ].join('\n'),
    );
  });

  it('sends mentions as fenced text to an agent without embeddedContext', async () => {
    const demo = api.catalog.agents.agents.find((agent) => agent.id === DEMO_AGENT_ID);
    assert.ok(demo);
    await settings.set('agents', [
      {
        name: 'Text only demo',
        command: demo.command,
        args: [...demo.args, '--variant=text-only'],
        env: { ELECTRON_RUN_AS_NODE: '1', TEST_AGENT_TEXT_ONLY: '1' },
      },
    ]);
    await eventually(
      'the text-only agent',
      () => api.catalog.agents.agents[0]?.id === 'agent:text-only-demo',
    );
    await freshChat(api);
    assert.equal(api.chat.viewState().selectedAgentId, 'agent:text-only-demo');
    const uri = vscode.Uri.file(helloPath()).toString();
    const line2 = new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(vscode.Uri.file(helloPath())))
      .split('\n')[1];
    const reply = await sendAndReply([
      { kind: 'selection', uri, name: 'Selection', range: { startLine: 2, endLine: 2 } },
    ]);
    assert.equal(reply, `You said: Look at these\n${uri}#L2-2\n\`\`\`\n${line2}\n\`\`\``);
    assert.deepEqual(api.chat.currentStatus.promptCapabilities, { image: false, embeddedContext: false });
    await assert.rejects(
      api.chat.turns.sendFromView(
        'And this screenshot?',
        [],
        [{ name: 'shot.png', mimeType: 'image/png', data: PNG_1PX }],
        [],
        api.chat.windowSlot,
      ),
      /image/i,
      'an image is refused before anything is sent',
    );
  });
});
