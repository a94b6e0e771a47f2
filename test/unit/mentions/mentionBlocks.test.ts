import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { MentionSource } from '../../../src/features/mentions/chat/mentionSource';
import type { Mention } from '../../../src/protocol';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { ownedPerTest } from '../../support/ownedPerTest';

const PROBLEM = "hello.ts:2:7 error Type 'number' is not assignable to type 'string'. (ts)";
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The editor's side of the picker, as the VS Code source would answer (it cannot run here). */
class RecordedMentions implements MentionSource {
  readonly queries: string[] = [];
  constructor(private readonly items: Mention[]) {}
  async query(query: string): Promise<Mention[]> {
    this.queries.push(query);
    return this.items;
  }
  problems(uri: string): string[] {
    return uri.endsWith('/hello.ts') ? [PROBLEM] : [];
  }
}

function lastAgentText(chat: ChatHarness): string {
  const entries = chat.controller.viewState().chat?.thread.entries ?? [];
  const agent = entries.filter((entry) => entry.kind === 'agent').at(-1);
  return agent && 'text' in agent ? agent.text : '';
}

describe('@-mentions and images become prompt blocks the agent can take', () => {
  const owned = ownedPerTest();

  function workspace(chat: ChatHarness): { hello: string; helloUri: string; folderUri: string } {
    mkdirSync(path.join(chat.dir, 'src'), { recursive: true });
    const hello = path.join(chat.dir, 'src', 'hello.ts');
    writeFileSync(hello, 'export function hello(): string {\n  return "hi";\n}\n');
    return {
      hello,
      helloUri: pathToFileURL(hello).href,
      folderUri: pathToFileURL(path.join(chat.dir, 'src')).href,
    };
  }

  it('sends a file, a selection, a folder, problems and an image as embedded resources, a link and an image', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')], mentions: new RecordedMentions([]) }));
    await chat.ready();
    const { helloUri, folderUri } = workspace(chat);
    await chat.controller.handleMessage({
      type: 'send',
      text: 'Look at @hello.ts',
      attachments: [
        { kind: 'file', uri: helloUri, name: 'hello.ts' },
        { kind: 'selection', uri: helloUri, name: 'Selection', range: { startLine: 2, endLine: 2 } },
        { kind: 'folder', uri: folderUri, name: 'src/' },
        { kind: 'problems', uri: helloUri, name: 'Problems in hello.ts' },
      ],
      images: [{ name: 'shot.png', mimeType: 'image/png', data: PNG_1PX }],
    });
    await until(() => lastAgentText(chat).includes('image'), 'the echo');
    assert.equal(
      lastAgentText(chat),
      [
        'You said: Look at @hello.ts',
        `- resource ${helloUri} (51 chars)`,
        `- resource ${helloUri}#L2-2 (14 chars)`,
        `- resource_link ${folderUri}`,
        `- resource ${helloUri}#problems (${PROBLEM.length} chars)`,
        `- image image/png (${PNG_1PX.length} bytes base64)`,
      ].join('\n'),
    );
  });

  it('sends mentions as fenced text to an agent without embeddedContext, and refuses images clearly', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('t', { TEST_AGENT_TEXT_ONLY: '1' })] }));
    await chat.ready();
    const { helloUri } = workspace(chat);
    await chat.controller.handleMessage({
      type: 'send',
      text: 'What does it return?',
      attachments: [
        { kind: 'selection', uri: helloUri, name: 'Selection', range: { startLine: 2, endLine: 2 } },
      ],
    });
    await until(() => lastAgentText(chat).includes('You said'), 'the echo');
    assert.equal(
      lastAgentText(chat),
      `You said: What does it return?\n${helloUri}#L2-2\n\`\`\`\n  return "hi";\n\`\`\``,
    );
    await chat.controller.handleMessage({
      type: 'send',
      text: 'And this?',
      images: [{ name: 'shot.png', mimeType: 'image/png', data: PNG_1PX }],
    });
    const error = chat.view.of('error').at(-1);
    assert.match(error?.message ?? '', /image/i);
  });

  it('sends an image file attached by URI as an image block, and refuses one over 5 MB', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.ready();
    const png = path.join(chat.dir, 'shot.png');
    writeFileSync(png, Buffer.from(PNG_1PX, 'base64'));
    await chat.controller.handleMessage({
      type: 'send',
      text: 'dropped',
      attachments: [{ uri: pathToFileURL(png).href, name: 'shot.png' }],
    });
    await until(() => lastAgentText(chat).includes('image'), 'the echo');
    assert.equal(
      lastAgentText(chat),
      `You said: dropped\n- image image/png (${PNG_1PX.length} bytes base64)`,
    );
    // A remote window's Explorer drop names the file with its vscode-remote: URI.
    const note = path.join(chat.dir, 'note.md');
    writeFileSync(note, '# Note\n');
    await chat.controller.handleMessage({
      type: 'send',
      text: 'remote drop',
      attachments: [
        { uri: `vscode-remote://ssh-remote%2Bbox${pathToFileURL(note).pathname}`, name: 'note.md' },
      ],
    });
    await until(() => lastAgentText(chat).includes('remote drop'), 'the echo');
    assert.equal(
      lastAgentText(chat),
      `You said: remote drop\n- resource ${pathToFileURL(note).href} (7 chars)`,
    );
    const huge = path.join(chat.dir, 'huge.jpg');
    writeFileSync(huge, Buffer.alloc(6 * 1024 * 1024));
    await chat.controller.handleMessage({
      type: 'send',
      text: 'too big',
      attachments: [{ uri: pathToFileURL(huge).href, name: 'huge.jpg' }],
    });
    assert.match(
      chat.view.of('error').at(-1)?.message ?? '',
      /huge\.jpg is 6 MB; images up to 5 MB can be sent/,
    );
  });

  it('sends the text of a file dropped without a path as an embedded resource', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.ready();
    await chat.controller.handleMessage({
      type: 'send',
      text: 'from the desktop',
      textFiles: [{ name: 'my notes.txt', text: 'remember the milk' }],
    });
    await until(() => lastAgentText(chat).includes('resource'), 'the echo');
    assert.equal(
      lastAgentText(chat),
      'You said: from the desktop\n- resource untitled:my%20notes.txt (17 chars)',
    );
  });

  it('puts the files picked with the paperclip on the composer, once each', async () => {
    const picked = [
      { uri: 'file:///w/a.ts', name: 'a.ts' },
      { uri: 'file:///w/b.ts', name: 'b.ts' },
    ];
    const chat = owned(new ChatHarness({ agents: [testAgent('a')], pickFiles: async () => picked }));
    await chat.ready();
    await chat.controller.handleMessage({ type: 'pick_files' });
    await chat.controller.handleMessage({ type: 'pick_files' });
    assert.deepEqual(
      chat.view.of('add_attachment').map((message) => message.attachment),
      picked,
    );
    assert.deepEqual(chat.controller.viewState().attachments, picked);
  });

  it('answers the picker with the editor entries and earlier chats, for the request it asked', async () => {
    const hello: Mention = {
      kind: 'file',
      uri: 'file:///w/src/hello.ts',
      name: 'hello.ts',
      detail: 'src/hello.ts',
    };
    const mentions = new RecordedMentions([hello]);
    const chat = owned(new ChatHarness({ agents: [testAgent('a')], mentions }));
    await chat.ready();
    await chat.send('first chat about greetings');
    await chat.controller.handleMessage({ type: 'new_chat' });
    await chat.controller.handleMessage({ type: 'mention_query', query: 'gree', requestId: 7 });
    const answer = chat.view.of('mention_results').at(-1);
    assert.equal(answer?.requestId, 7);
    assert.deepEqual(mentions.queries, ['gree']);
    assert.deepEqual(answer?.items[0], hello);
    const earlier = answer?.items[1];
    assert.equal(earlier?.kind, 'chat');
    assert.match(earlier?.name ?? '', /greetings/);
    await chat.controller.handleMessage({
      type: 'send',
      text: 'continue @that',
      attachments: [{ kind: 'chat', uri: earlier?.uri ?? '', name: earlier?.name ?? '' }],
    });
    await until(() => lastAgentText(chat).includes('resource acp-chat:'), 'the echo');
    assert.match(lastAgentText(chat), /- resource acp-chat:\S+ \(\d+ chars\)/);
  });
});
