import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { inWorker } from '../../support/inWorker';
import { silentLogger } from '../../../src/core/ports';
import { compileAgentPattern, toRe2Syntax } from '../../../src/features/elicitation/core/agentPattern';
import { ElicitationBroker } from '../../../src/features/elicitation/core/elicitationBroker';
import { MAX_PATTERN_INPUT_CHARS } from '../../../src/protocol/elicitation';

const WORKER = path.join(__dirname, 'support', 'answerInWorker.ts');
/** Far above what a linear-time check of a 41-character answer takes, far below a backtracking one. */
const GUARD_MS = 10_000;

type Result = { outcome: { ok: boolean; problems?: Record<string, string> } } | { refused: string };

function form(pattern: string, fallback?: string): acp.CreateElicitationRequest {
  return {
    sessionId: 'session',
    mode: 'form',
    message: 'Hostile form',
    requestedSchema: {
      type: 'object',
      properties: { a: { type: 'string', title: 'A', pattern, ...(fallback ? { default: fallback } : {}) } },
    },
  } as acp.CreateElicitationRequest;
}

/** The agent's form with `pattern` and `value` as its default, answered with that default in a worker. */
function answerInWorker(pattern: string, value: string): Promise<Result> {
  return inWorker<Result>(WORKER, { params: form(pattern, value), values: { a: value } }, GUARD_MS);
}

/** The same in this thread, for patterns that cannot backtrack for long on any engine. */
async function answerHere(pattern: string, value: string): Promise<Result> {
  const broker = new ElicitationBroker(silentLogger, compileAgentPattern);
  try {
    const asked = broker.request(
      { agentId: 'agent', sessionId: 'session', params: form(pattern) },
      new AbortController().signal,
    );
    asked.catch(() => undefined);
    const key = broker.pending()[0]?.elicitation.key ?? '';
    return { outcome: broker.answer(key, { action: 'accept', values: { a: value } }) };
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error) };
  } finally {
    broker.dispose();
  }
}

describe("an agent's form pattern runs in linear time, or not at all", function () {
  this.timeout(GUARD_MS * 2);

  // The shapes the old nested-quantifier check missed, and the classic ones, with the agent's own
  // 41-character default: on a backtracking engine Submit never returns.
  const DEFAULT = `${'a'.repeat(40)}!`;
  for (const pattern of [
    '^((a)+)+$',
    '^((?:a)+)+$',
    '^a*a*a*a*a*a*a*a*$',
    '^(a+)+$',
    '^(a|aa)+$',
    '^(\\w+\\s?)*$',
  ]) {
    it(`answers at once for ${pattern} with the agent's default (the guard fails, not hangs)`, async () => {
      const result = await answerInWorker(pattern, DEFAULT);
      assert.ok('outcome' in result, JSON.stringify(result));
      assert.equal(result.outcome.ok, false);
      assert.deepEqual(result.outcome.problems, { a: 'A does not have the expected form.' });
      const fits = await answerHere(pattern, 'a'.repeat(40));
      assert.ok('outcome' in fits && fits.outcome.ok, JSON.stringify(fits));
    });
  }

  for (const [pattern, why] of [
    ['^(a+)\\1$', /uses a backreference/],
    ['^(?<x>a)\\k<x>$', /uses a backreference/],
    ['^(?=a)a+$', /uses lookahead or lookbehind/],
    ['^(?!b)a+$', /uses lookahead or lookbehind/],
    ['(?<=a)b', /uses lookahead or lookbehind/],
    ['(?<!a)b', /uses lookahead or lookbehind/],
    ['a{2000}', /is not a regular expression this client can run \(invalid repeat count/],
    ['(unclosed', /is not a regular expression this client can run/],
  ] as const) {
    it(`refuses ${pattern} with the reason, before anything is shown`, async () => {
      const result = await answerHere(pattern, 'a');
      assert.ok('refused' in result, JSON.stringify(result));
      assert.match(result.refused, /^Invalid params: Elicitation refused: the a field's pattern /);
      assert.match(result.refused, why);
    });
  }

  it('keeps JSON Schema’s meaning: a match anywhere, \\u escapes, Unicode classes, named groups', () => {
    const test = (pattern: string, value: string): boolean => {
      const compiled = compileAgentPattern(pattern);
      assert.ok('test' in compiled, pattern);
      return compiled.test(value);
    };
    assert.equal(test('b', 'abc'), true, 'unanchored, as in JSON Schema');
    assert.equal(test('^b', 'abc'), false);
    assert.equal(test('^\\u0041+$', 'AAA'), true);
    assert.equal(test('^\\u{1F600}$', '😀'), true);
    assert.equal(test('^\\\\u0041$', '\\u0041'), true, 'an escaped backslash stays one');
    assert.equal(test('^\\p{L}+$', 'Ünïcödé'), true);
    assert.equal(test('^(?<year>\\d{4})-\\d{2}$', '2025-01'), true);
    assert.equal(test('^[a-z0-9-]+$', 'web-app'), true);
    assert.equal(toRe2Syntax('[\\u0000-\\u007F]'), '[\\x{0000}-\\x{007F}]');
  });

  it(`checks answers up to ${MAX_PATTERN_INPUT_CHARS} characters against a pattern, and refuses longer ones`, async () => {
    const atBound = await answerHere('^a+$', 'a'.repeat(MAX_PATTERN_INPUT_CHARS));
    assert.ok('outcome' in atBound && atBound.outcome.ok, JSON.stringify(atBound).slice(0, 200));
    const over = await answerHere('^a+$', 'a'.repeat(MAX_PATTERN_INPUT_CHARS + 1));
    assert.ok('outcome' in over, JSON.stringify(over).slice(0, 200));
    assert.deepEqual(over.outcome.problems, { a: `A takes at most ${MAX_PATTERN_INPUT_CHARS} characters.` });
  });
});
