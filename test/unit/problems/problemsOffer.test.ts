import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DiagnosticsPort, Problem } from '../../../src/features/problems/chat/problemsOffer';
import { problemsPrompt } from '../../../src/features/problems/chat/problemsOffer';
import { Emitter } from '../../../src/core/util/disposable';
import { ChatHarness, testAgent, until } from '../support/chatHarness';

/**
 * A stand-in for a language server (none runs here): it reads the real files on disk and reports
 * every `ERROR: …` line as an error and `WARN: …` line as a warning, after a file is checked (in a
 * later task, as a language server reports after a document is opened).
 */
class MarkerDiagnostics implements DiagnosticsPort {
  private readonly changed = new Emitter<readonly string[]>();
  private readonly known = new Set<string>();
  checked: string[] = [];
  /** The file lists the watch compared after a turn (`problems(paths)`; the count before a turn is all). */
  compared: (readonly string[])[] = [];

  constructor(private readonly dir: string) {}

  /** Starts reporting on a file (an editor has it open). */
  open(file: string): void {
    this.known.add(path.join(this.dir, file));
  }

  problems(paths?: readonly string[]): Problem[] {
    if (paths !== undefined) {
      this.compared.push(paths);
    }
    const files = paths ?? [...this.known];
    return files.filter((file) => this.known.has(file)).flatMap((file) => this.scan(file));
  }

  private scan(file: string): Problem[] {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    return text.split('\n').flatMap((line, index): Problem[] => {
      const match = /^(ERROR|WARN): (.*)$/.exec(line);
      return match
        ? [
            {
              path: file,
              line: index + 1,
              column: 1,
              severity: match[1] === 'ERROR' ? 'error' : 'warning',
              message: match[2] as string,
              source: 'marker',
            },
          ]
        : [];
    });
  }

  onDidChange(listener: (paths: readonly string[]) => void) {
    return this.changed.event(listener);
  }

  async check(paths: readonly string[]): Promise<void> {
    this.checked.push(...paths);
    for (const file of paths) {
      this.known.add(file);
    }
    void Promise.resolve().then(() => this.changed.fire(paths));
  }

  relativePath(file: string): string {
    return path.relative(this.dir, file);
  }
}

describe('Problems offered back after a turn', () => {
  let chat: ChatHarness | undefined;
  let diagnostics: MarkerDiagnostics | undefined;
  afterEach(async () => {
    await chat?.dispose();
    chat = undefined;
  });

  function start(): { chat: ChatHarness; diagnostics: MarkerDiagnostics } {
    chat = new ChatHarness({
      agents: [testAgent('a')],
      diagnostics: (dir) => (diagnostics = new MarkerDiagnostics(dir)),
    });
    return { chat, diagnostics: diagnostics as MarkerDiagnostics };
  }

  it('offers only the new problems in the files the turn changed, and sends them as the next prompt', async () => {
    const { chat, diagnostics } = start();
    writeFileSync(path.join(chat.dir, 'hello.ts'), 'WARN: old warning\nconst a = 1;\n');
    writeFileSync(path.join(chat.dir, 'other.ts'), 'ERROR: elsewhere\n');
    diagnostics.open('hello.ts');
    diagnostics.open('other.ts');
    await chat.ready();
    await chat.send('own write hello.ts WARN: old warning\\nconst a = 1;\\nERROR: broken here');
    await until(() => chat.view.of('problems_offer').length > 0, 'the offer', 12_000);
    const [posted] = chat.view.of('problems_offer');
    assert.ok(posted?.offer, 'an offer, not a withdrawal');
    assert.deepEqual(posted.offer.problems, [
      { path: 'hello.ts', line: 3, severity: 'error', message: 'broken here', source: 'marker' },
    ]);
    assert.ok(diagnostics.checked.includes(path.join(chat.dir, 'hello.ts')), 'the changed file was checked');
    assert.deepEqual(chat.controller.viewState().problemsOffer, posted.offer, 'a reloaded view gets it too');

    await chat.controller.handleMessage({ type: 'fix_problems', turnId: posted.offer.turnId });
    await until(() => chat.transcript().includes('You said: Fix this new problem'), 'the echo');
    assert.match(chat.transcript(), /hello\.ts:3:1 error: broken here \(marker\)/);
    assert.doesNotMatch(chat.transcript(), /old warning \(marker\)|elsewhere/);
    assert.equal(chat.controller.viewState().problemsOffer, undefined, 'taken up: gone');
    assert.deepEqual(chat.view.of('problems_offer').at(-1), {
      type: 'problems_offer',
      chatId: posted.chatId,
    });
  });

  it('offers nothing after a turn that changed no file, or whose changes left no new problem', async () => {
    const { chat, diagnostics } = start();
    await chat.ready();
    await chat.send('just talking');
    await chat.send('own write fine.ts const ok = true;');
    await until(() => chat.transcript().includes('wrote fine.ts'), 'the write');
    // The watch has settled and compared the changed file: an offer would have been posted by now.
    const fine = path.join(chat.dir, 'fine.ts');
    await until(() => diagnostics.compared.some((paths) => paths.includes(fine)), 'the comparison', 12_000);
    assert.deepEqual(chat.view.of('problems_offer'), []);
    assert.ok(readdirSync(chat.dir).includes('fine.ts'), 'the turn did change a file');
  });

  it('refuses a stale offer with a clear error', async () => {
    const { chat } = start();
    await chat.ready();
    await chat.controller.handleMessage({ type: 'fix_problems', turnId: 'turn-that-is-gone' });
    assert.deepEqual(chat.view.of('error').at(-1), {
      type: 'error',
      message: 'Those problems are no longer offered.',
    });
  });

  it('lists at most 50 problems in the prompt and says how many more', () => {
    const problems: Problem[] = Array.from({ length: 53 }, (_, index) => ({
      path: '/w/a.ts',
      line: index + 1,
      column: 2,
      severity: 'warning',
      message: `w${index}`,
    }));
    const [block] = problemsPrompt(problems, (file) => path.basename(file));
    assert.ok(block && block.type === 'text');
    const lines = block.text.split('\n');
    assert.equal(lines[0], 'Fix these 53 new problems that appeared in the files you changed:');
    assert.equal(lines[1], '- a.ts:1:2 warning: w0');
    assert.equal(lines.length, 1 + 50 + 1);
    assert.equal(lines.at(-1), '- … and 3 more');
  });
});
