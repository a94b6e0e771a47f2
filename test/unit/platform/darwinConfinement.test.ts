import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { checkWriteTarget, isInside } from '../../../src/core/files/pathConfinement';
import { nameKey } from '../../../src/core/platform/pathNames';
import { platformFor, type Disk, type EntryStats } from '../../../src/core/platform/platform';

/**
 * A macOS volume in memory: APFS as it comes (names found in any case and either Unicode
 * normalization, `realpath` spelling them as stored) or a case-sensitive APFS volume (an option when
 * formatting; common for source trees), where `ws` and `WS` are two folders. No links: the link
 * rules are POSIX's, which the host's own suites run for real.
 */
function apfs(caseSensitive: boolean, folders: readonly string[], files: readonly string[]): Disk {
  const darwin = platformFor('darwin');
  const key = (name: string): string => (caseSensitive ? name : nameKey(name, darwin));
  const entries = new Map<string, { spelled: string; kind: 'dir' | 'file'; ino: bigint }>();
  let ino = 1n;
  for (const [kind, list] of [['dir', folders] as const, ['file', files] as const]) {
    for (const entry of list) {
      entries.set(key(entry), { spelled: entry, kind, ino: ino++ });
    }
  }
  const find = (file: string) => {
    const found = entries.get(key(path.posix.resolve(file)));
    if (found === undefined) {
      throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
    }
    return found;
  };
  const stats = (file: string): EntryStats => {
    const found = find(file);
    return {
      isSymbolicLink: () => false,
      isDirectory: () => found.kind === 'dir',
      isFile: () => found.kind === 'file',
      dev: 1n,
      ino: found.ino,
    };
  };
  return {
    lstat: async (file) => stats(file),
    stat: async (file) => stats(file),
    readlink: async (file) => {
      throw Object.assign(new Error(`EINVAL: ${file}`), { code: 'EINVAL' });
    },
    realpath: async (file) => find(file).spelled,
    rename: async () => {
      throw new Error('not simulated');
    },
    rm: async () => {
      throw new Error('not simulated');
    },
  };
}

describe('platform: confinement on macOS (simulated APFS)', () => {
  const folders = ['/', '/Users', '/Users/me', '/Users/me/ws', '/Users/me/ws/src', '/Users/me/WS'];
  const files = ['/Users/me/ws/src/a.ts', '/Users/me/WS/secret.txt'];

  it('on a case-sensitive volume, refuses a sibling folder whose name differs only in case', async () => {
    const darwin = platformFor('darwin', { disk: apfs(true, folders, files) });
    assert.equal(await isInside('/Users/me/WS/secret.txt', ['/Users/me/ws'], darwin), false);
    assert.equal(await isInside('/Users/me/WS/new.txt', ['/Users/me/ws'], darwin), false);
    assert.equal(await isInside('/Users/me/ws/src/a.ts', ['/Users/me/ws'], darwin), true);
  });

  it('on a case-insensitive volume, accepts the folder itself spelled in another case or normalization', async () => {
    const composed = '/Users/me/Caf\u00e9';
    const darwin = platformFor('darwin', {
      disk: apfs(false, ['/', '/Users', '/Users/me', composed], [`${composed}/a.ts`]),
    });
    assert.equal(await isInside('/users/ME/CAFE\u0301/a.ts', [composed], darwin), true);
    assert.equal(await isInside('/users/me/cafe\u0301/new.ts', [composed], darwin), true);
    assert.equal(await isInside('/users/me/other/new.ts', [composed], darwin), false);
  });

  it('writes in place through a folder named in another case on a case-insensitive volume', async () => {
    const darwin = platformFor('darwin', { disk: apfs(false, folders.slice(0, 5), files.slice(0, 1)) });
    assert.deepEqual(await checkWriteTarget('/users/ME/WS/SRC/a.ts', '/Users/me/ws', darwin), {
      kind: 'in-place',
    });
  });
});
