import { strict as assert } from 'node:assert';
import { ChatHarness, RecordingView, testAgent, until } from './support/chatHarness';

describe('several chat views (sidebar and editor tab)', () => {
  let chat: ChatHarness | undefined;
  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  it('mirrors the active chat to every view that said ready, and stops posting to a closed one', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    const sidebar = new RecordingView();
    const tab = new RecordingView();
    chat.controller.attachView(sidebar);
    const tabConnection = chat.controller.attachView(tab);
    await chat.controller.handleMessage({ type: 'ready' }, sidebar);
    await chat.controller.connectActive();
    assert.equal(sidebar.of('snapshot').length, 1);
    assert.deepEqual(tab.messages, [], 'nothing before the tab says ready');

    await chat.controller.handleMessage({ type: 'ready' }, tab);
    const [tabSnapshot] = tab.of('snapshot');
    assert.ok(tabSnapshot, 'the tab gets the full state');
    assert.equal(tabSnapshot.view.chat?.chatId, sidebar.of('snapshot').at(-1)?.view.chat?.chatId);

    await chat.controller.handleMessage({ type: 'send', text: 'hello from the tab' }, tab);
    const echoed = (view: RecordingView): boolean =>
      view
        .events()
        .some((event) => event.type === 'text_appended' && event.text.includes('hello from the tab'));
    await until(() => echoed(sidebar) && echoed(tab), 'the answer in both views');

    tabConnection.dispose();
    const before = tab.messages.length;
    await chat.controller.handleMessage({ type: 'send', text: 'only the sidebar now' }, sidebar);
    await until(
      () =>
        sidebar
          .events()
          .some((event) => event.type === 'text_appended' && event.text.includes('only the sidebar')),
      'the answer in the sidebar',
    );
    assert.equal(tab.messages.length, before, 'a closed view gets nothing');
  });

  it('counts the views that said ready, and forgets a closed one', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    const sidebar = new RecordingView();
    const tab = new RecordingView();
    chat.controller.attachView(sidebar);
    const tabConnection = chat.controller.attachView(tab);
    assert.equal(chat.controller.readyViewCount, 0, 'attached is not ready');
    await chat.controller.handleMessage({ type: 'ready' }, tab);
    assert.equal(chat.controller.readyViewCount, 1);
    await chat.controller.handleMessage({ type: 'ready' }, sidebar);
    assert.equal(chat.controller.readyViewCount, 2);
    // `ready` starts the chat's agent: let it finish starting, so disposing the harness stops it.
    await chat.controller.connectActive();
    tabConnection.dispose();
    assert.equal(chat.controller.readyViewCount, 1);
  });
});
