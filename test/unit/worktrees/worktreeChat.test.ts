import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { WorktreeActions } from '../../../src/features/worktrees/chat/worktreeActions';
import { WorktreeChats } from '../../../src/features/worktrees/chat/worktreeChats';
import { RepositoryOffers } from '../../../src/features/worktrees/chat/worktreeOffers';
import { worktreesContribution, WorktreeStarter } from '../../../src/features/worktrees/chat/worktreesContribution';
import { findLeftovers } from '../../../src/features/worktrees/chat/leftoverWorktrees';
import { WorktreeLocks } from '../../../src/features/worktrees/core/worktreeLocks';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { sandbox, userGit, type Sandbox } from './support/repo';
import { ScriptedWorktreeUi } from './support/scriptedUi';

describe('worktrees: a chat in its own worktree, end to end in the chat', function () {
  this.timeout(60_000);
  let box: Sandbox;
  let harness: ChatHarness;
  let worktrees: WorktreeChats;
  let ui: ScriptedWorktreeUi;
  let actions: WorktreeActions;
  let starter: WorktreeStarter;
  let locks: WorktreeLocks;
  let trusted: boolean;

  beforeEach(async () => {
    box = sandbox({ 'app.txt': 'one\ntwo\nthree\n' });
    trusted = true;
    locks = new WorktreeLocks(path.join(box.storage, 'locks'));
    const host = {
      trusted: () => trusted,
      workspaceFolders: () => [box.repo],
      storageDir: path.join(box.storage, 'records'),
      workDir: path.join(box.storage, 'work'),
      git: async () => 'git',
      locks,
      settings: () => ({ include: [] }),
      logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {} } as never,
    };
    worktrees = new WorktreeChats(host);
    ui = new ScriptedWorktreeUi();
    actions = new WorktreeActions(worktrees, ui, host.logger);
    starter = new WorktreeStarter();
    harness = new ChatHarness({
      agents: [testAgent('a')],
      folders: () => [box.repo],
      cwd: () => box.repo,
      moreContributions: () => [
        worktreesContribution(worktrees, actions, new RepositoryOffers(worktrees, () => trusted), starter),
      ],
    });
    await harness.ready();
  });
  afterEach(async () => {
    await harness.dispose();
    worktrees.dispose();
    locks.dispose();
    box.dispose();
  });

  const chatId = (): string => harness.controller.windowChatId;
  const lastWorktree = () => harness.view.of('worktree').filter((m) => m.chatId === chatId()).at(-1)?.worktree;

  it("starts a new chat in a worktree: the agent works there, the header shows its branch, the user's folder and git are untouched", async () => {
    const before = box.userView();
    ui.answer = 'parser fix';
    assert.equal(await starter.startWindowChat(), true);
    const record = worktrees.record(chatId());
    assert.ok(record);
    assert.equal(record.branch, 'acp/parser-fix');
    assert.equal(harness.controller.viewState().worktree?.branch, 'acp/parser-fix');
    // A relative path: the agent's cwd is the worktree.
    await harness.send('own write app.txt agent\\n');
    assert.equal(readFileSync(path.join(record.folder, 'app.txt'), 'utf8'), 'agent\n');
    assert.equal(box.read(path.join(box.repo, 'app.txt')), 'one\ntwo\nthree\n');
    await until(() => lastWorktree()?.changes?.files === 1);
    assert.equal(lastWorktree()?.changes?.unapplied, true);
    assert.deepEqual(box.userView(), before, "the user's status, HEAD, stash and index are as they were");
  });

  it('an empty chat is offered a worktree; a chat that has started is not moved', async () => {
    await until(() => harness.controller.viewState().worktreeOffer?.available === true);
    await harness.send('hello');
    await assert.rejects(starter.startWindowChat(), /stays where it is/);
    assert.equal(worktrees.record(chatId()), undefined);
  });

  it('refuses in Restricted Mode: no worktree made, and a worktree chat sends nothing', async () => {
    trusted = false;
    await assert.rejects(starter.startWindowChat(), /Restricted Mode/);
    assert.equal(existsSync(path.join(box.root, 'project.worktrees')), false);
    trusted = true;
    await starter.startWindowChat();
    trusted = false;
    await harness.send('own write app.txt agent').catch(() => undefined);
    const folder = worktrees.record(chatId())!.folder;
    assert.equal(readFileSync(path.join(folder, 'app.txt'), 'utf8'), 'one\ntwo\nthree\n', 'nothing was sent');
    assert.ok(
      harness.view.messages.some((m) => JSON.stringify(m).includes('Restricted Mode')),
      'the chat says why',
    );
  });

  it("Apply merges the agent's work with the user's uncommitted work; a clash opens the merge editor", async () => {
    await starter.startWindowChat();
    const record = worktrees.record(chatId())!;
    await harness.send('own write app.txt one\\ntwo\\nTHREE by agent\\n ; write notes.md new file\\n');
    box.write('app.txt', 'ONE by user\ntwo\nthree\n');
    const head = userGit(box.repo, ['rev-parse', 'HEAD']);
    const stash = userGit(box.repo, ['stash', 'list']);
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'apply' });
    assert.equal(box.read(path.join(box.repo, 'app.txt')), 'ONE by user\ntwo\nTHREE by agent\n');
    assert.equal(box.read(path.join(box.repo, 'notes.md')), 'new file\n');
    assert.equal(userGit(box.repo, ['rev-parse', 'HEAD']), head);
    assert.equal(userGit(box.repo, ['stash', 'list']), stash);
    assert.equal(ui.conflicts.length, 0);
    // Both sides change the same line: conflict markers, and the merge editor opens.
    await harness.send('own write app.txt one\\ntwo\\nagent again\\n');
    box.write('app.txt', 'ONE by user\ntwo\nuser again\n');
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'apply' });
    assert.equal(ui.conflicts.length, 1);
    assert.equal(ui.conflicts[0]![0]!.rel, 'app.txt');
    assert.match(box.read(path.join(box.repo, 'app.txt')), /<<<<<<<[\s\S]*user again[\s\S]*agent again[\s\S]*>>>>>>>/);
    assert.ok(existsSync(record.folder));
  });

  it('Discard asks when unapplied work would be lost, and removes worktree and branch only when told', async () => {
    await starter.startWindowChat();
    const record = worktrees.record(chatId())!;
    await harness.send('own write app.txt agent\\n');
    ui.confirmChoice = undefined;
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'discard' });
    assert.equal(ui.confirms.length, 1);
    assert.match(ui.confirms[0]!, /never applied/);
    assert.ok(existsSync(record.folder), 'dismissed: kept');
    ui.confirmChoice = 'Discard';
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'discard' });
    assert.equal(existsSync(record.folder), false);
    assert.equal(userGit(box.repo, ['branch', '--list', record.branch]), '');
    assert.match(harness.controller.viewState().worktree?.problem ?? '', /Discarded/);
  });

  it('Discard of applied work asks nothing; Commit commits on its branch', async () => {
    await starter.startWindowChat();
    const record = worktrees.record(chatId())!;
    await harness.send('own write app.txt agent\\n');
    ui.answer = 'Agent work';
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'commit' });
    assert.equal(userGit(box.repo, ['log', '-1', '--format=%s', record.branch]).trim(), 'Agent work');
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'apply' });
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'discard' });
    assert.deepEqual(ui.confirms, [], 'nothing unapplied: not asked');
    assert.equal(existsSync(record.folder), false);
  });

  it("a deleted chat's worktree is offered: dismissed, it stays and is found as left over", async () => {
    await starter.startWindowChat();
    const record = worktrees.record(chatId())!;
    const gone = chatId();
    await harness.controller.newChat();
    await harness.controller.deleteChat(gone);
    await until(() => ui.informs.some((message) => message.includes('What becomes of it')));
    assert.ok(existsSync(record.folder));
    const leftovers = await findLeftovers(worktrees, { workspaceFolders: () => [box.repo], settings: () => ({ include: [] }), locks }, (id) => starter.chatExists(id));
    assert.deepEqual(leftovers.map((leftover) => leftover.folder), [record.folder]);
  });
});
