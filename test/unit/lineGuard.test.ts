import { strict as assert } from 'node:assert';
import { lineGuard, type RejectedLine } from '../../src/core/connection/lineGuard';

interface GuardResult {
  readonly output: string;
  readonly rejected: RejectedLine[];
}

/** Feeds `input` through the guard cut at the given byte offsets, and collects what comes out. */
async function guard(input: string, cuts: readonly number[] = []): Promise<GuardResult> {
  const bytes = new TextEncoder().encode(input);
  const bounds = [0, ...cuts, bytes.length];
  const chunks = bounds.slice(1).map((end, i) => bytes.slice(bounds[i], end));
  const rejected: RejectedLine[] = [];
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) {
        controller.enqueue(chunk);
      }
      controller.close();
    },
  });
  const reader = source.pipeThrough(lineGuard((line) => rejected.push(line))).getReader();
  const parts: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    parts.push(next.value);
  }
  return { output: Buffer.concat(parts).toString('utf8'), rejected };
}

describe('lineGuard', () => {
  it('passes JSON object lines through unchanged, each followed by a newline', async () => {
    const input = '{"jsonrpc":"2.0","id":1}\n{"jsonrpc":"2.0","method":"x"}\n';

    assert.deepEqual(await guard(input), { output: input, rejected: [] });
  });

  it('joins a line cut by a chunk boundary before, at or after its newline', async () => {
    const input = '{"a":1}\n{"b":2}\n';

    assert.deepEqual(await guard(input, [4]), { output: input, rejected: [] });
    assert.deepEqual(await guard(input, [8]), { output: input, rejected: [] });
    assert.deepEqual(await guard(input, [7]), { output: input, rejected: [] });
  });

  it('joins a line split across three chunks', async () => {
    const input = '{"method":"session/update","params":{"x":"yz"}}\n';

    assert.deepEqual(await guard(input, [5, 20]), { output: input, rejected: [] });
  });

  it('gives the same output for every single cut position', async () => {
    const input = '{"a":1}\r\nbanner\n\n{"b":"é"}\n{"c":3}';
    const expected = '{"a":1}\r\n{"b":"é"}\n{"c":3}\n';
    const length = new TextEncoder().encode(input).length;

    for (let cut = 1; cut < length; cut++) {
      const result = await guard(input, [cut]);
      assert.deepEqual(
        result,
        { output: expected, rejected: [{ preview: 'banner', bytes: 6 }] },
        `cut at ${cut}`,
      );
    }
  });

  it('keeps the carriage return of a CRLF line inside the passed line', async () => {
    assert.deepEqual(await guard('{"a":1}\r\n{"b":2}\r\n', [3, 12]), {
      output: '{"a":1}\r\n{"b":2}\r\n',
      rejected: [],
    });
  });

  it('drops blank and whitespace-only lines without reporting them', async () => {
    assert.deepEqual(await guard('\n\r\n   \n{"a":1}\n\t\n'), { output: '{"a":1}\n', rejected: [] });
  });

  it('passes a final line without a newline when the stream ends', async () => {
    assert.deepEqual(await guard('{"a":1}\n{"b":2}', [10]), { output: '{"a":1}\n{"b":2}\n', rejected: [] });
  });

  it('reports and drops lines that cannot be JSON-RPC messages', async () => {
    const input = 'this is not json {\n{"ok":true}\nStarting agent v1.2 ...\n{"a":1\n';

    assert.deepEqual(await guard(input, [10, 30]), {
      output: '{"ok":true}\n',
      rejected: [
        { preview: 'this is not json {', bytes: 18 },
        { preview: 'Starting agent v1.2 ...', bytes: 23 },
        { preview: '{"a":1', bytes: 6 },
      ],
    });
  });

  it('reports a torn line at the end of the stream', async () => {
    assert.deepEqual(await guard('{"a":1}\n{"b":', [9]), {
      output: '{"a":1}\n',
      rejected: [{ preview: '{"b":', bytes: 5 }],
    });
  });

  it('trims surrounding whitespace from the preview and the byte count', async () => {
    assert.deepEqual(await guard('  debug: x \r\n'), {
      output: '',
      rejected: [{ preview: 'debug: x', bytes: 8 }],
    });
  });

  it('limits the preview to the first 200 characters and counts every byte', async () => {
    const line = 'x'.repeat(300);

    assert.deepEqual(await guard(`${line}\n`, [150]), {
      output: '',
      rejected: [{ preview: 'x'.repeat(200), bytes: 300 }],
    });
  });

  it('counts bytes, not characters, for a rejected line with multi-byte text', async () => {
    assert.deepEqual(await guard('héllo €\n'), { output: '', rejected: [{ preview: 'héllo €', bytes: 10 }] });
  });
});
