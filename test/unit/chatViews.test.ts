import { strict as assert } from 'node:assert';
import { ChatHarness, RecordingView, testAgent, until } from './support/chatHarness';
import { ownedPerTest } from '../support/ownedPerTest';

describe('several chat views (sidebar and editor tab)', () => {
  const owned = ownedPerTest();

  /** A chat attached to two views, neither ready yet; the tab's connection closes the tab. */
  function chatInTwoViews() {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const sidebar = new RecordingView();
    const tab = new RecordingView();
    chat.controller.attachView(sidebar);
    const tabConnection = chat.controller.attachView(tab);
    return { chat, sidebar, tab, tabConnection };
  }

  it('mirrors the active chat to every view that said ready, and stops posting to a closed one', async () => {
    const { chat, sidebar, tab, tabConnection } = chatInTwoViews();
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
    const { chat, sidebar, tab, tabConnection } = chatInTwoViews();
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

describe('different chats side by side (sidebar and editor tabs, issue 11 item 6)', () => {
  const owned = ownedPerTest();

  const said = (view: RecordingView, text: string): boolean =>
    view.events().some((event) => event.type === 'text_appended' && event.text.includes(text));
  const shownChat = (view: RecordingView): string | undefined =>
    view.of('snapshot').at(-1)?.view.chat?.chatId;

  /** The harness's sidebar plus a tab with a chat of its own (`chatId`, or a new one), both ready. */
  async function sidebarAndTab(
    harness: ChatHarness,
    chatId?: string,
  ): Promise<{ sidebar: RecordingView; tab: RecordingView }> {
    const sidebar = harness.view;
    await harness.controller.handleMessage({ type: 'ready' }, sidebar);
    await harness.controller.connectActive();
    const tab = new RecordingView();
    harness.controller.attachView(tab, chatId === undefined ? {} : { chatId });
    await harness.controller.handleMessage({ type: 'ready' }, tab);
    return { sidebar, tab };
  }

  it('gives each view only its own chat: its snapshot, events, status and chat list', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const { sidebar, tab } = await sidebarAndTab(chat);
    const sidebarChat = shownChat(sidebar);
    const tabChat = shownChat(tab);
    assert.ok(sidebarChat && tabChat);
    assert.notEqual(tabChat, sidebarChat, 'a tab opened without a chat starts a new one');
    assert.equal(chat.controller.windowChatId, sidebarChat);

    await chat.controller.handleMessage({ type: 'send', text: 'from the sidebar' }, sidebar);
    await chat.controller.handleMessage({ type: 'send', text: 'from the tab' }, tab);
    await until(() => said(sidebar, 'from the sidebar') && said(tab, 'from the tab'), 'both answers');

    assert.ok(!said(sidebar, 'from the tab'), 'the sidebar gets none of the tab chat’s events');
    assert.ok(!said(tab, 'from the sidebar'), 'the tab gets none of the sidebar chat’s events');
    assert.deepEqual(new Set(sidebar.of('thread_events').map((m) => m.chatId)), new Set([sidebarChat]));
    assert.deepEqual(new Set(tab.of('thread_events').map((m) => m.chatId)), new Set([tabChat]));
    // Each view's chat list marks its own chat as the active one, and ends as the host's.
    assert.ok(sidebar.of('chats').every((m) => m.activeChatId === sidebarChat));
    assert.ok(tab.of('chats').every((m) => m.activeChatId === tabChat));
    for (const view of [sidebar, tab]) {
      assert.ok(view.of('chat_changed').length > 0, 'the turns changed the lists');
      assert.deepEqual(view.chatLists().at(-1), chat.controller.viewState().chats);
    }
    assert.equal(chat.controller.viewState().chat?.chatId, sidebarChat, 'the window’s chat is the sidebar’s');
  });

  it('switches, starts and deletes chats in one view without moving the other', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const { sidebar, tab } = await sidebarAndTab(chat);
    const sidebarChat = shownChat(sidebar) as string;
    const tabChat = shownChat(tab) as string;
    const sidebarSnapshots = sidebar.of('snapshot').length;

    await chat.controller.handleMessage({ type: 'switch_chat', chatId: sidebarChat }, tab);
    assert.equal(shownChat(tab), sidebarChat, 'the tab switched');
    assert.equal(sidebar.of('snapshot').length, sidebarSnapshots, 'the sidebar got no new snapshot');
    assert.equal(chat.controller.windowChatId, sidebarChat);

    await chat.controller.handleMessage({ type: 'new_chat' }, sidebar);
    const newSidebarChat = shownChat(sidebar) as string;
    assert.ok(![sidebarChat, tabChat].includes(newSidebarChat), 'the sidebar has a new chat');
    assert.equal(shownChat(tab), sidebarChat, 'the tab stayed');
    assert.equal(chat.controller.windowChatId, newSidebarChat);

    // Deleting the chat the tab shows moves only the tab, to the most recent chat.
    await chat.controller.handleMessage({ type: 'delete_chat', chatId: sidebarChat }, sidebar);
    const moved = shownChat(tab) as string;
    assert.ok(moved && moved !== sidebarChat, 'the tab moved off the deleted chat');
    assert.equal(shownChat(sidebar), newSidebarChat, 'the sidebar stayed');
    assert.ok(!chat.controller.chatList().some((c) => c.chatId === sidebarChat));
  });

  it('keeps a chat shown in two views in sync in both, and answers a view’s error only there', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    await chat.controller.restored;
    const { sidebar, tab } = await sidebarAndTab(chat, chat.controller.windowChatId);
    assert.equal(shownChat(tab), shownChat(sidebar), 'the tab opened the sidebar’s chat');

    await chat.controller.handleMessage({ type: 'send', text: 'typed in the tab' }, tab);
    await until(
      () => said(sidebar, 'typed in the tab') && said(tab, 'typed in the tab'),
      'the answer in both',
    );

    const sidebarErrors = sidebar.of('error').length;
    await chat.controller.handleMessage({ type: 'switch_chat', chatId: 'no-such-chat' }, tab);
    assert.equal(tab.of('error').length, 1);
    assert.match(tab.of('error')[0]?.message ?? '', /Unknown chat no-such-chat/);
    assert.equal(sidebar.of('error').length, sidebarErrors, 'the sidebar is not told of the tab’s error');

    // The switch happens in the tab only: the sidebar keeps receiving its chat.
    const other = new RecordingView();
    chat.controller.attachView(other, {});
    await chat.controller.handleMessage({ type: 'ready' }, other);
    await chat.controller.handleMessage({ type: 'switch_chat', chatId: shownChat(other) as string }, tab);
    await chat.controller.handleMessage({ type: 'send', text: 'now elsewhere' }, tab);
    await until(() => said(other, 'now elsewhere'), 'the answer in the view showing that chat');
    assert.ok(!said(sidebar, 'now elsewhere'));
  });

  it('reopens a tab on the chat it names after a restart, and on a new chat when that one is gone', async () => {
    let chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const { tab } = await sidebarAndTab(chat);
    const tabChat = shownChat(tab) as string;
    await chat.controller.handleMessage({ type: 'send', text: 'kept for the tab' }, tab);
    await until(() => said(tab, 'kept for the tab'), 'the answer');
    const storageDir = chat.storageDir;
    await chat.dispose({ keepStorage: true });

    // VS Code after a reload: a new controller on the same storage; the tab is attached before the journal is read.
    chat = owned(new ChatHarness({ agents: [testAgent('a')], storageDir }));
    const restoredTab = new RecordingView();
    chat.controller.attachView(restoredTab, { chatId: tabChat });
    const goneTab = new RecordingView();
    chat.controller.attachView(goneTab, { chatId: 'deleted-meanwhile' });
    await chat.controller.handleMessage({ type: 'ready' }, restoredTab);
    await chat.controller.handleMessage({ type: 'ready' }, goneTab);
    // Each ready tab starts its chat's agent: let it come up before the harness stops it.
    await until(
      () =>
        [restoredTab, goneTab].every((view) =>
          view.of('agent_status').some((m) => m.status.state === 'ready'),
        ),
      'the tabs’ agent ready',
    );
    const snapshot = restoredTab.of('snapshot').at(-1);
    assert.equal(snapshot?.view.chat?.chatId, tabChat);
    assert.ok(snapshot?.view.chat?.thread.entries.some((e) => 'text' in e && e.text === 'kept for the tab'));
    const fresh = goneTab.of('snapshot').at(-1)?.view.chat;
    assert.ok(fresh && fresh.chatId !== tabChat, 'a tab whose chat is gone starts a new one');
    assert.deepEqual(fresh.thread.entries, []);
  });

  it('routes a permission request to the chat that asked, answered inline in the tab showing it', async () => {
    const chat = owned(new ChatHarness({ agents: [testAgent('a')] }));
    const { sidebar, tab } = await sidebarAndTab(chat);
    const tabChat = shownChat(tab) as string;
    const sending = chat.controller.handleMessage({ type: 'send', text: 'tool' }, tab);
    const harness = chat;
    await until(() => harness.permissions.prompts.length === 1, 'the permission request');
    const prompt = harness.permissions.prompts[0];
    assert.ok(prompt);
    assert.equal(chat.controller.chatOfSession(prompt.sessionId), tabChat, 'the request is the tab chat’s');
    assert.equal(chat.controller.chatOfSession('unknown-session'), undefined);
    await until(() => tab.askedPermission(), 'the inline prompt in the tab');
    assert.ok(!sidebar.askedPermission(), 'the sidebar shows another chat: no prompt there');
    await chat.controller.handleMessage(
      { type: 'answer_permission', key: prompt.key, optionId: prompt.options[0]?.optionId ?? null },
      tab,
    );
    await sending;
    assert.equal(
      tab
        .of('thread_events')
        .flatMap((m) => m.events)
        .filter((e) => e.type === 'turn_ended').length,
      1,
    );
    const ended = tab.events().find((e) => e.type === 'turn_ended');
    assert.ok(ended?.type === 'turn_ended' && ended.turn.status === 'completed', JSON.stringify(ended));
  });
});
