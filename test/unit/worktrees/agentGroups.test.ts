import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgentGroups } from '../../../src/features/worktrees/chat/agentGroups';
import type { ComparisonDiagnostics, RunRow } from '../../../src/features/worktrees/chat/groupComparison';
import { WorktreeActions } from '../../../src/features/worktrees/chat/worktreeActions';
import { WorktreeChats } from '../../../src/features/worktrees/chat/worktreeChats';
import { RepositoryOffers } from '../../../src/features/worktrees/chat/worktreeOffers';
import { worktreesContribution, WorktreeStarter } from '../../../src/features/worktrees/chat/worktreesContribution';
import { WorktreeGroupStore, type WorktreeGroup } from '../../../src/features/worktrees/core/worktreeGroups';
import { WorktreeLocks } from '../../../src/features/worktrees/core/worktreeLocks';
import type { AgentDefinition } from '../../../src/chat/agentSettings';
import { ChatHarness, testAgent, until } from '../support/chatHarness';
import { sandbox, userGit, type Sandbox } from './support/repo';
import { ScriptedWorktreeUi } from './support/scriptedUi';

/** The same prompt, a different change per agent: each writes its own name (its env) into app.txt. */
const PROMPT = 'own shell echo "$WHO" > app.txt';
const ORIGINAL = 'one\ntwo\nthree\n';
const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {} } as never;

const AGENTS: AgentDefinition[] = [
  testAgent('a', { WHO: 'alpha' }),
  testAgent('b', { WHO: 'beta' }),
  testAgent('c', { WHO: 'gamma' }),
  // A program that is not there: its run fails to start.
  { id: 'broken', label: 'Broken agent', command: '/nonexistent/acp-agent-h32c', args: [], env: {} },
];

describe('worktrees: "Ask several agents…", the group and its comparison', function () {
  this.timeout(90_000);
  let box: Sandbox;
  let harness: ChatHarness;
  let worktrees: WorktreeChats;
  let ui: ScriptedWorktreeUi;
  let actions: WorktreeActions;
  let groups: AgentGroups;
  let locks: WorktreeLocks;
  let trusted: boolean;
  let diagnostics: ComparisonDiagnostics | undefined;

  /** The worktree side over `storageDir` (a second call after a restart reads the records back). */
  function worktreeSide(): void {
    const storageDir = path.join(box.storage, 'records');
    const host = {
      trusted: () => trusted,
      workspaceFolders: () => [box.repo],
      storageDir,
      workDir: path.join(box.storage, 'work'),
      git: async () => 'git',
      locks,
      settings: () => ({ include: [] }),
      logger: silent,
    };
    worktrees = new WorktreeChats(host);
    actions = new WorktreeActions(worktrees, ui, silent);
    groups = new AgentGroups({
      worktrees,
      actions,
      ui,
      logger: silent,
      storageDir,
      trusted: () => trusted,
      agents: () => AGENTS.map((agent) => ({ id: agent.id, label: agent.label })),
      ...(diagnostics ? { diagnostics } : {}),
    });
  }

  function harnessOptions() {
    return {
      agents: AGENTS,
      folders: () => [box.repo],
      cwd: () => box.repo,
      moreContributions: () => [
        worktreesContribution(
          worktrees,
          actions,
          new RepositoryOffers(worktrees, () => trusted),
          new WorktreeStarter(),
          groups,
        ),
      ],
    };
  }

  beforeEach(async () => {
    box = sandbox({ 'app.txt': ORIGINAL });
    trusted = true;
    diagnostics = undefined;
    locks = new WorktreeLocks(path.join(box.storage, 'locks'));
    ui = new ScriptedWorktreeUi();
    worktreeSide();
    harness = new ChatHarness(harnessOptions());
    await harness.ready();
  });
  afterEach(async () => {
    await harness.dispose();
    groups.dispose();
    worktrees.dispose();
    locks.dispose();
    box.dispose();
  });

  /** A fresh chat and worktree side, built with the `diagnostics` the test set. */
  async function restartWithDiagnostics(): Promise<void> {
    await harness.dispose();
    groups.dispose();
    worktrees.dispose();
    worktreeSide();
    harness = new ChatHarness(harnessOptions());
    await harness.ready();
  }

  const rows = (group: WorktreeGroup): RunRow[] => groups.rows(group);
  /** Every run failed, or finished with its one changed file counted (each run of PROMPT changes app.txt). */
  const settled = (group: WorktreeGroup): boolean =>
    rows(group).every((row) => (row.status === 'finished' && row.counts?.files === 1) || row.status === 'failed');
  const worktreesFolder = (): string => path.join(box.root, 'project.worktrees');

  it('sends one prompt to three agents, each in its own worktree on its own branch; the comparison lists status, files and +/− lines; the user’s folder and git are untouched', async () => {
    const before = box.userView();
    const group = await groups.start(PROMPT, ['a', 'b', 'c']);
    assert.deepEqual(
      group.members.map((member) => member.agentLabel),
      ['Test a', 'Test b', 'Test c'],
    );
    const records = group.members.map((member) => worktrees.record(member.chatId)!);
    assert.equal(new Set(records.map((record) => record.folder)).size, 3, 'three worktrees');
    assert.equal(new Set(records.map((record) => record.branch)).size, 3, 'three branches');
    assert.ok(records.every((record) => record.group === group.id && record.branch.startsWith('acp/')));
    await until(() => settled(group), 'every run to finish and be counted', 60_000);
    for (const [i, who] of ['alpha', 'beta', 'gamma'].entries()) {
      const row = rows(group)[i]!;
      assert.equal(row.status, 'finished');
      assert.equal(readFileSync(path.join(records[i]!.folder, 'app.txt'), 'utf8'), `${who}\n`);
      assert.deepEqual(row.counts, { files: 1, added: 1, removed: 3, unapplied: true });
      assert.deepEqual(
        row.files.map((file) => [file.rel, file.kind, file.added, file.removed]),
        [['app.txt', 'modified', 1, 3]],
      );
      assert.equal(row.applied, false);
      // The same prompt went to each, in a chat of its own with its agent.
      await harness.controller.switchChat(group.members[i]!.chatId);
      const shown = harness.controller.viewState().chat;
      const first = shown?.thread.entries[0];
      assert.equal(first && 'text' in first ? first.text : undefined, PROMPT);
      assert.equal(harness.controller.agent.id, ['a', 'b', 'c'][i]);
    }
    assert.deepEqual(box.userView(), before, "the user's status, HEAD, stash and index are as they were");
    assert.equal(readFileSync(path.join(box.repo, 'app.txt'), 'utf8'), ORIGINAL);
  });

  it('Apply this one brings that agent’s bytes; Discard the rest asks once, naming the work lost, then removes their worktrees and branches', async () => {
    const group = await groups.start(PROMPT, ['a', 'b', 'c']);
    await until(() => settled(group), 'every run to finish', 60_000);
    const [a, b, c] = group.members.map((member) => worktrees.record(member.chatId)!);
    await groups.applyOne(b!.chatId);
    assert.equal(readFileSync(path.join(box.repo, 'app.txt'), 'utf8'), 'beta\n', "the main folder holds b's change");
    await until(() => rows(group)[1]!.applied, 'b to show as applied');
    assert.equal(userGit(box.repo, ['log', '--format=%s']).trim(), 'first', 'Apply commits nothing');

    ui.confirmChoice = undefined;
    assert.equal(await groups.discardRest(b!.chatId), 0, 'dismissed: nothing removed');
    assert.equal(ui.confirms.length, 1, 'one question for both');
    assert.match(ui.confirms[0]!, /Discard 2 worktrees/);
    for (const other of [a!, c!]) {
      assert.ok(ui.confirms[0]!.includes(path.basename(other.folder)), 'the question names each worktree');
      assert.ok(existsSync(other.folder));
    }
    assert.match(ui.confirms[0]!, /never applied/);

    ui.confirmChoice = 'Discard';
    assert.equal(await groups.discardRest(b!.chatId), 2);
    for (const other of [a!, c!]) {
      assert.equal(existsSync(other.folder), false, 'its worktree is gone');
      assert.equal(userGit(box.repo, ['branch', '--list', other.branch]), '', 'its branch is gone');
    }
    assert.ok(existsSync(b!.folder), 'the applied one stays');
    assert.deepEqual(
      rows(group).map((row) => row.status),
      ['discarded', 'finished', 'discarded'],
    );
    assert.equal(readFileSync(path.join(box.repo, 'app.txt'), 'utf8'), 'beta\n');
  });

  it('a run whose agent cannot start is failed with the reason; the others go on', async () => {
    const group = await groups.start(PROMPT, ['broken', 'a']);
    await until(() => settled(group), 'both runs to settle', 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${JSON.stringify(rows(group).map((row) => [row.status, row.detail]))}`);
    });
    const [broken, a] = rows(group);
    assert.equal(broken!.status, 'failed');
    assert.match(broken!.detail ?? '', /could not start|ENOENT|not found|nonexistent/i);
    assert.equal(a!.status, 'finished');
    assert.equal(readFileSync(path.join(a!.record!.folder, 'app.txt'), 'utf8'), 'alpha\n');
    // The failure is kept with the group.
    const stored = await new WorktreeGroupStore(path.join(box.storage, 'records')).all();
    assert.match(stored[0]!.members[0]!.failure ?? '', /could not start|ENOENT|not found|nonexistent/i);
  });

  it('a run waiting for a permission is "waiting" with what for: the chat’s own status', async () => {
    const group = await groups.start('permissions 1', ['a', 'b']);
    await until(() => rows(group).every((row) => row.status === 'waiting'), 'both to wait for the user', 60_000);
    assert.match(rows(group)[0]!.detail ?? '', /permission/);
  });

  it('the group survives a reload: its runs and their figures are read back', async () => {
    const group = await groups.start(PROMPT, ['a', 'c']);
    await until(() => settled(group), 'both runs to finish', 60_000);
    groups.dispose();
    worktrees.dispose();
    await harness.dispose({ keepStorage: true });
    worktreeSide();
    harness = new ChatHarness({ ...harnessOptions(), storageDir: harness.storageDir });
    await harness.ready();
    await groups.restored;
    const [back] = groups.list();
    assert.deepEqual(back, group);
    await until(() => rows(back!).every((row) => row.counts?.files === 1), 'the figures to be counted again');
    assert.deepEqual(
      rows(back!).map((row) => row.status),
      ['finished', 'finished'],
    );
  });

  it('counts the Problems VS Code reports for the changed files, and has the files checked', async () => {
    const checked: string[][] = [];
    diagnostics = {
      problems: (paths) =>
        paths.some((file) => file.includes(`${path.sep}test-a-`))
          ? [{ severity: 'error' }, { severity: 'warning' }, { severity: 'error' }]
          : [],
      check: async (paths) => {
        checked.push([...paths]);
      },
    };
    await restartWithDiagnostics();
    const group = await groups.start(PROMPT, ['a', 'b']);
    await until(() => settled(group) && checked.length === 2, 'both runs to finish and be checked', 60_000);
    const [a, b] = rows(group);
    assert.deepEqual(a!.problems, { errors: 2, warnings: 1 });
    assert.deepEqual(b!.problems, { errors: 0, warnings: 0 });
    assert.deepEqual(
      checked.map((paths) => paths.map((file) => path.basename(file))),
      [['app.txt'], ['app.txt']],
    );
  });

  it('announces a run only when its row changes: a change that leaves the row as it was redraws nothing', async () => {
    // A redraw makes VS Code build the row's inline actions anew: a click on Apply This One meanwhile was lost.
    let errors = 0;
    let diagnosticsChanged: ((paths: readonly string[]) => void) | undefined;
    diagnostics = {
      problems: (paths) =>
        paths.some((file) => file.includes(`${path.sep}test-a-`))
          ? Array.from({ length: errors }, () => ({ severity: 'error' as const }))
          : [],
      check: async () => {},
      onDidChange: (listener) => {
        diagnosticsChanged = listener;
        return { dispose: () => (diagnosticsChanged = undefined) };
      },
    };
    await restartWithDiagnostics();
    const group = await groups.start(PROMPT, ['a', 'b']);
    await until(() => settled(group), 'both runs to finish and be counted', 60_000);
    const run = group.members[0]!;
    const changedFile = [path.join(worktrees.record(run.chatId)!.folder, 'app.txt')];
    diagnosticsChanged!(changedFile);
    const announced: (string | undefined)[] = [];
    const listening = groups.onDidChange((chatId) => announced.push(chatId));
    try {
      diagnosticsChanged!(changedFile);
      await worktrees.refresh(run.chatId);
      assert.deepEqual(announced, [], 'nothing the row shows changed');
      errors = 2;
      diagnosticsChanged!(changedFile);
      assert.deepEqual(announced, [run.chatId], 'its problems changed');
      assert.deepEqual(rows(group)[0]!.problems, { errors: 2, warnings: 0 });
    } finally {
      listening.dispose();
    }
  });

  it('refuses in Restricted Mode: nothing is asked, no chat or worktree is made', async () => {
    trusted = false;
    const chats = harness.controller.chatList().length;
    await assert.rejects(groups.ask(), /Restricted Mode/);
    await assert.rejects(groups.start(PROMPT, ['a', 'b']), /Restricted Mode/);
    assert.equal(ui.agentPickers.length, 0, 'no picker');
    assert.equal(harness.controller.chatList().length, chats, 'no chat');
    assert.equal(existsSync(worktreesFolder()), false, 'no worktree');
  });

  it('the picker says 2 to 6; fewer than two agents send nothing', async () => {
    ui.answer = PROMPT;
    ui.agentsPicked = ['a'];
    assert.equal(await groups.ask(), undefined);
    assert.deepEqual(ui.agentPickers[0]!.bounds, { min: 2, max: 6 });
    assert.deepEqual(ui.agentPickers[0]!.offered, ['a', 'b', 'c', 'broken']);
    assert.match(ui.informs.at(-1) ?? '', /Choose 2 to 6 agents \(1 chosen\)/);
    await assert.rejects(groups.start(PROMPT, ['a', 'b', 'c', 'a', 'b', 'c', 'a']), /2 to 6/);
    assert.equal(existsSync(worktreesFolder()), false, 'no worktree');
    assert.deepEqual(groups.list(), []);
  });

  it('"Ask several agents…" from the empty chat’s button asks the prompt and the agents, then starts the group', async () => {
    ui.answer = PROMPT;
    ui.agentsPicked = ['a', 'b'];
    await harness.controller.handleMessage({ type: 'worktree_action', action: 'ask_several' });
    const [group] = groups.list();
    assert.ok(group);
    assert.deepEqual(
      group.members.map((member) => member.agentId),
      ['a', 'b'],
    );
    await until(() => settled(group), 'both runs to finish', 60_000);
  });
});

describe('worktrees: the groups kept on disk', () => {
  let box: Sandbox;
  beforeEach(() => {
    box = sandbox();
  });
  afterEach(() => box.dispose());

  const group = (n: number, members = 2): WorktreeGroup => ({
    id: `g${n}`,
    prompt: `prompt ${n}`,
    createdAt: 1_000 + n,
    members: Array.from({ length: members }, (_, i) => ({ chatId: `c${n}-${i}`, agentId: 'a', agentLabel: 'A' })),
  });

  it('keeps the newest 20 groups', async () => {
    const store = new WorktreeGroupStore(box.storage);
    const kept = await store.save(Array.from({ length: 25 }, (_, n) => group(n)));
    assert.equal(kept.length, 20);
    assert.deepEqual((await store.all()).map((g) => g.id), kept.map((g) => g.id));
    assert.equal(kept[0]!.id, 'g24');
    assert.equal(kept.at(-1)!.id, 'g5');
  });

  it('drops a group that does not parse (seven members, a hostile id) and keeps the others; a broken file reads as none', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(box.storage, { recursive: true });
    const file = path.join(box.storage, 'worktree-groups.json');
    writeFileSync(file, JSON.stringify({ groups: [group(1, 7), { ...group(2), id: '../x' }, group(3)] }));
    const store = new WorktreeGroupStore(box.storage);
    assert.deepEqual((await store.all()).map((g) => g.id), ['g3']);
    writeFileSync(file, '{"groups": [');
    assert.deepEqual(await store.all(), []);
    await assert.rejects(store.save([group(1, 7)]), 'a group of seven is never written');
  });
});
