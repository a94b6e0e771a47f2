import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { secretValues } from '../../../src/core/secrets/secrets';
import { channelLogger } from '../../../src/vscode/logChannel';
import { notCheckedDiagnosis } from '../../../src/features/doctor/chat/restrictedCheck';
import { renderDoctorReport } from '../../../src/features/doctor/chat/doctorReport';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

const SECRET = 'sk-planted-5ecret-0123456789';

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return fs.statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('a planted secret is in no file on disk', () => {
  let chat: ChatHarness;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-secret-'));
  before(() => secretValues.add('API_TOKEN', SECRET));
  after(() => {
    secretValues.clear();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  afterEach(async () => chat?.dispose());

  it('not in the journal, the log or the doctor report, though the agent quotes it back', async () => {
    chat = new ChatHarness({ agents: [testAgent('a')] });
    await chat.ready();
    const turnsEnded = (count: number) => () =>
      (chat.controller.viewState().chat?.thread.turns ?? []).filter((t) => t.status !== 'running').length >=
      count;
    await chat.send(`error -32603 refused ${SECRET} data {"env":{"TOKEN":"${SECRET}"}}`);
    await until(turnsEnded(1), 'the failed turn');
    await chat.send(`please use ${SECRET}`);
    await until(turnsEnded(2), 'the echoed turn');
    // What the chat shows of the agent (the user's own message is shown as they typed it).
    const thread = chat.controller.viewState().chat?.thread;
    const fromAgent = JSON.stringify([
      thread?.entries.filter((entry) => entry.kind !== 'user'),
      thread?.turns.map((turn) => turn.error),
    ]);
    assert.equal(fromAgent.includes(SECRET), false, fromAgent);
    assert.match(fromAgent, /refused ‹secret API_TOKEN›/);
    assert.match(fromAgent, /You said: please use ‹secret API_TOKEN›/);
    await chat.controller.shutdown();

    // The log, as the extension writes it: every line the chat logged, through the log channel.
    const logFile = path.join(scratch, 'acp.log');
    fs.writeFileSync(logFile, '');
    const write = (message: string) => fs.appendFileSync(logFile, `${message}\n`);
    const channel = {
      trace: write,
      info: write,
      warn: write,
      error: write,
    } as unknown as vscode.LogOutputChannel;
    const log = channelLogger(channel);
    for (const line of chat.logger.lines) {
      log[line.level](line.message);
    }
    log.error(`the agent said: ${SECRET}`);

    const reportFile = path.join(scratch, 'agent-check.md');
    const diagnosis = {
      ...notCheckedDiagnosis(testAgent('a'), 'configured'),
      stderrTail: [`token=${SECRET}`],
    };
    fs.writeFileSync(
      reportFile,
      renderDoctorReport([diagnosis], {
        generatedAt: new Date(),
        platform: 'x',
        hostNode: 'v',
        trusted: true,
      }),
    );

    const files = [...filesUnder(chat.storageDir), logFile, reportFile];
    assert.ok(
      files.some((file) => file.endsWith('.jsonl')),
      `a journal among ${files.join(', ')}`,
    );
    for (const file of files) {
      assert.equal(fs.readFileSync(file, 'utf8').includes(SECRET), false, `the secret is in ${file}`);
    }
    assert.match(fs.readFileSync(logFile, 'utf8'), /the agent said: ‹secret API_TOKEN›/);
    assert.match(fs.readFileSync(reportFile, 'utf8'), /token=‹secret API_TOKEN›/);
  });
});
