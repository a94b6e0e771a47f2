import { strict as assert } from 'node:assert';
import { RequestError } from '@agentclientprotocol/sdk';
import { AgentNotRunningError } from '../../src/core/connection/agentProcess';
import {
  AgentError,
  AgentExitedError,
  classifyError,
  describeErrorForLog,
  errorDetails,
  MAX_ERROR_DATA_CHARS,
  MAX_REASON_CHARS,
  NotSupportedError,
  type AgentErrorKind,
} from '../../src/core/connection/errors';

/** The parts of a classified error a caller reads. */
function summary(error: AgentError): {
  kind: AgentErrorKind;
  message: string;
  code?: number;
  data?: unknown;
} {
  return {
    kind: error.kind,
    message: error.message,
    ...(error.code !== undefined ? { code: error.code } : {}),
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
}

describe('classifyError', () => {
  const byCode: [number, AgentErrorKind][] = [
    [-32000, 'auth_required'],
    [-32602, 'invalid_params'],
    [-32002, 'not_found'],
    [-32601, 'not_supported'],
    [-32800, 'cancelled'],
    [429, 'rate_limited'],
    [-32603, 'internal'],
  ];
  for (const [code, kind] of byCode) {
    it(`classifies a RequestError with code ${code} as ${kind}`, () => {
      const error = classifyError(new RequestError(code, 'Something failed', { detail: 'x' }));

      assert.ok(error instanceof AgentError);
      assert.deepEqual(summary(error), { kind, message: 'Something failed', code, data: { detail: 'x' } });
    });
  }

  it('classifies a server error whose message says 429 Too Many Requests as rate_limited', () => {
    const error = classifyError(new RequestError(-32603, '429 Too Many Requests'));

    assert.deepEqual(summary(error), {
      kind: 'rate_limited',
      message: '429 Too Many Requests',
      code: -32603,
    });
  });

  it('classifies a server error whose data has status 429 as rate_limited', () => {
    const error = classifyError(new RequestError(-32603, 'Internal error', { status: 429 }));

    assert.deepEqual(summary(error), {
      kind: 'rate_limited',
      message: 'Internal error',
      code: -32603,
      data: { status: 429 },
    });
  });

  it('classifies a server error whose message says Unauthorized as auth_required', () => {
    const error = classifyError(new RequestError(-32603, 'Unauthorized'));

    assert.equal(error.kind, 'auth_required');
  });

  it('classifies a plain JSON-RPC error object by its code', () => {
    const error = classifyError({ code: -32602, message: 'Bad params' });

    assert.deepEqual(summary(error), { kind: 'invalid_params', message: 'Bad params', code: -32602 });
  });

  it('classifies a plain Error as internal with its message', () => {
    const error = classifyError(new Error('socket hang up'));

    assert.deepEqual(summary(error), { kind: 'internal', message: 'socket hang up' });
  });

  it('classifies a thrown string as internal', () => {
    assert.deepEqual(summary(classifyError('oops')), { kind: 'internal', message: 'oops' });
  });

  it('classifies AgentNotRunningError as process_exited with the exit described', () => {
    const exit = { code: 1, signal: null };
    const error = classifyError(new AgentNotRunningError(exit));

    assert.ok(error instanceof AgentExitedError);
    assert.deepEqual(summary(error), { kind: 'process_exited', message: 'The agent exited with code 1.' });
    assert.deepEqual(error.exit, exit);
    assert.deepEqual(error.stderrTail, []);
  });

  it('classifies AgentNotRunningError without an exit as a stopped agent', () => {
    const error = classifyError(new AgentNotRunningError(undefined));

    assert.deepEqual(summary(error), { kind: 'process_exited', message: 'The agent stopped.' });
  });

  it("carries the agent's reason from the SDK's { details } data into the message", () => {
    const error = classifyError(
      RequestError.internalError({ details: 'No previous sessions found for this project.' }),
    );

    assert.deepEqual(summary(error), {
      kind: 'internal',
      message: 'Internal error: No previous sessions found for this project.',
      code: -32603,
      data: { details: 'No previous sessions found for this project.' },
    });
  });

  it("carries the agent's reason from string data and from a data object's message", () => {
    assert.equal(
      classifyError(new RequestError(-32603, 'Internal error', 'Session file is corrupt')).message,
      'Internal error: Session file is corrupt',
    );
    assert.equal(
      classifyError({
        code: -32000,
        message: 'Authentication required',
        data: { message: 'Run copilot login' },
      }).message,
      'Authentication required: Run copilot login',
    );
  });

  it('does not repeat a reason the message already says', () => {
    const error = classifyError(RequestError.internalError({ details: 'disk full' }, 'disk full'));

    assert.equal(error.message, 'Internal error: disk full');
  });

  it(`bounds a long reason to ${MAX_REASON_CHARS} characters`, () => {
    const error = classifyError(new RequestError(-32603, 'Internal error', 'x'.repeat(5000)));

    assert.equal(error.message.length, 'Internal error: '.length + MAX_REASON_CHARS);
    assert.ok(error.message.endsWith('x…'));
  });

  it('passes an AgentError through unchanged', () => {
    const original = new AgentError('timeout', 'Too slow', 7, { a: 1 });

    assert.equal(classifyError(original), original);
  });

  it('passes a NotSupportedError through unchanged', () => {
    const original = new NotSupportedError('Test Agent', 'Loading sessions');

    assert.equal(classifyError(original), original);
    assert.deepEqual(summary(original), {
      kind: 'not_supported',
      message: 'Loading sessions is not supported by Test Agent.',
    });
  });
});

describe('classifyError keeps what it wraps', () => {
  it('keeps the JSON-RPC error as the cause, with its code and data', () => {
    const original = new RequestError(-32603, 'Internal error', { details: 'quota exceeded', status: 403 });
    const error = classifyError(original);

    assert.equal(error.cause, original);
    assert.equal(error.code, -32603);
    assert.deepEqual(error.data, { details: 'quota exceeded', status: 403 });
  });

  it('keeps a plain Error as the cause', () => {
    const original = new Error('socket hang up');

    assert.equal(classifyError(original).cause, original);
  });
});

describe('errorDetails', () => {
  it("gives kind, message, code and the agent's data pretty-printed", () => {
    const details = errorDetails(
      new RequestError(-32603, 'Upstream failed', { status: 502, body: { error: 'bad gateway' } }),
    );

    assert.deepEqual(details, {
      kind: 'internal',
      message: 'Upstream failed',
      code: -32603,
      data: '{\n  "status": 502,\n  "body": {\n    "error": "bad gateway"\n  }\n}',
    });
  });

  it('keeps string data as written, so a stack trace reads as lines', () => {
    const details = errorDetails(
      new RequestError(-32603, 'Internal error', 'Error: boom\n    at run (agent.js:1:1)'),
    );

    assert.equal(details.data, 'Error: boom\n    at run (agent.js:1:1)');
    assert.equal(details.message, 'Internal error: Error: boom\n    at run (agent.js:1:1)');
  });

  it(`bounds hostile data to ${MAX_ERROR_DATA_CHARS} characters, strings and deep objects alike`, () => {
    const long = errorDetails(new RequestError(-32603, 'Internal error', 'x'.repeat(1_000_000)));
    assert.equal(
      long.data,
      `${'x'.repeat(MAX_ERROR_DATA_CHARS)}… (cut at ${MAX_ERROR_DATA_CHARS} characters)`,
    );

    const deep = JSON.parse(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`) as unknown;
    const nested = errorDetails(new RequestError(-32603, 'Internal error', deep)).data ?? '';
    assert.ok(nested.length <= MAX_ERROR_DATA_CHARS + 40, String(nested.length));
    assert.match(nested, /"…"/);
  });

  it('has no code or data for an error that did not come from the agent', () => {
    assert.deepEqual(errorDetails(new Error('spawn ENOENT')), { kind: 'internal', message: 'spawn ENOENT' });
    assert.deepEqual(errorDetails(new RequestError(-32603, 'Internal error', null)), {
      kind: 'internal',
      message: 'Internal error',
      code: -32603,
    });
  });
});

describe('describeErrorForLog', () => {
  it('writes the message, kind, code, data and the causes not already said', () => {
    const agentError = new RequestError(-32002, 'Resource not found', { sessionId: 's1' });
    const wrapped = new AgentError(
      'not_found',
      'Claude could not continue this chat: Resource not found',
      -32002,
      agentError.data,
      { cause: new Error('resume failed', { cause: agentError }) },
    );

    assert.equal(
      describeErrorForLog(wrapped),
      [
        'Claude could not continue this chat: Resource not found [not_found, code -32002]',
        '  data: {',
        '    "sessionId": "s1"',
        '  }',
        '  caused by Error: resume failed',
      ].join('\n'),
    );
  });

  it('follows a cyclic cause chain only so far', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });
    const line = describeErrorForLog(new AgentError('internal', 'top', undefined, undefined, { cause: a }));

    assert.equal(line, 'top [internal]\n  caused by Error: a\n  caused by Error: b');
  });
});

describe('instanceof on the error classes (checked by brand across bundles)', () => {
  it('tells the kinds apart, and a subclass without a brand of its own checks as usual', () => {
    class LocalError extends AgentError {}
    const exited = new AgentExitedError(undefined, []);
    const local = new LocalError('internal', 'local');
    assert.ok(exited instanceof AgentError);
    assert.ok(exited instanceof AgentExitedError);
    assert.ok(!(exited instanceof NotSupportedError));
    assert.ok(!(exited instanceof LocalError));
    assert.ok(local instanceof LocalError && local instanceof AgentError);
    assert.ok(!(new AgentError('internal', 'plain') instanceof AgentExitedError));
    for (const value of [new Error('x'), { code: 1, message: 'shape' }, null, undefined, 'text', 42]) {
      assert.ok(!(value instanceof AgentError), `${String(value)} is no AgentError`);
    }
  });

  it("recognises another copy's objects by the brand alone, not by the name", () => {
    // What a second bundle's copy of the class looks like to this one: same brand, another prototype.
    class OtherCopy extends Error {
      static readonly brand: string = 'acp-agents:AgentExitedError';
    }
    class SameNameNoBrand extends Error {}
    Object.defineProperty(SameNameNoBrand, 'name', { value: 'AgentExitedError' });
    assert.ok(new OtherCopy('x') instanceof AgentExitedError);
    assert.ok(!(new OtherCopy('x') instanceof AgentError), 'AgentError is not on its chain');
    assert.ok(!(new SameNameNoBrand('x') instanceof AgentExitedError));
  });
});
