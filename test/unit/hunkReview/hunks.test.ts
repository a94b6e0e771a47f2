import { strict as assert } from 'node:assert';
import {
  bytesOf,
  keepHunk,
  linesOf,
  MAX_HUNK_FILE_BYTES,
  splitHunks,
  undoHunk,
  type FileVersions,
} from '../../../src/features/hunkReview/core/hunks';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function split(before: Buffer, after: Buffer): FileVersions {
  const versions = splitHunks(before, after);
  assert.ok(!('refused' in versions), 'split into hunks');
  return versions;
}

describe('hunks: a file change split by lines, each hunk kept or undone byte-exact', () => {
  it('gives back exactly the bytes it split: BOM, CRLF, a lone CR, no final newline, invalid UTF-8', () => {
    const bytes = Buffer.concat([
      BOM,
      Buffer.from('a\r\nb\rc\n'),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from('end'),
    ]);
    const lines = linesOf(bytes);
    assert.equal(lines.length, 4);
    assert.ok(Buffer.from(bytesOf(lines)).equals(bytes));
  });

  it('undoes one of three hunks, every other byte as now (CRLF, BOM and a missing final newline kept)', () => {
    const before = Buffer.concat([BOM, Buffer.from('one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix')]);
    const after = Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nnew\r\nfive\r\nSIX')]);
    const versions = split(before, after);
    assert.equal(versions.hunks.length, 3);
    assert.ok(
      Buffer.from(undoHunk(versions, 1)).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nSIX')]),
      ),
    );
    assert.ok(
      Buffer.from(undoHunk(versions, 2)).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nnew\r\nfive\r\nsix')]),
      ),
    );
    assert.ok(
      Buffer.from(keepHunk(versions, 0)).equals(
        Buffer.concat([BOM, Buffer.from('one\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix')]),
      ),
    );
  });

  it('a hunk that only adds a final newline is its own change, and its undo takes only that away', () => {
    const versions = split(Buffer.from('a\nb'), Buffer.from('A\na\nb\n'));
    assert.equal(versions.hunks.length, 2);
    assert.ok(Buffer.from(undoHunk(versions, 1)).equals(Buffer.from('A\na\nb')));
    assert.ok(Buffer.from(undoHunk(versions, 0)).equals(Buffer.from('a\nb\n')));
  });

  it('refuses binary and over-size files (the change card handles them)', () => {
    assert.deepEqual(splitHunks(Buffer.from('a\n'), Buffer.from([0x61, 0x00, 0x0a])), { refused: 'binary' });
    const big = Buffer.alloc(MAX_HUNK_FILE_BYTES + 1, 0x61);
    assert.deepEqual(splitHunks(Buffer.from('a\n'), big), { refused: 'too large' });
    assert.ok(!('refused' in splitHunks(undefined, Buffer.alloc(MAX_HUNK_FILE_BYTES, 0x61))));
  });

  it('names a hunk that is not there', () => {
    const versions = split(Buffer.from('a\n'), Buffer.from('b\n'));
    assert.throws(() => undoHunk(versions, 1), /no change 2/);
  });
});
