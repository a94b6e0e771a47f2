import { strict as assert } from 'node:assert';
import { checkWriteTarget, isInside, resolveReal } from '../../../src/core/files/pathConfinement';
import { platformFor, type Platform } from '../../../src/core/platform/platform';
import { SimulatedWindowsDisk } from './simulatedWindowsDisk';

/**
 * Confinement attacked with Windows-shaped paths, on a simulated NTFS volume (see
 * simulatedWindowsDisk.ts for what it answers as Windows does). The workspace folder is given as
 * VS Code gives it: lower-case drive letter.
 */
describe('platform: confinement on Windows (simulated NTFS)', () => {
  const root = 'c:\\Users\\Me\\WS';
  let disk: SimulatedWindowsDisk;
  let win32: Platform;

  beforeEach(() => {
    disk = new SimulatedWindowsDisk()
      .volume('C:')
      .volume('D:', 'Volume{d1}')
      .file('C:\\Users\\Me\\WS\\src\\a.ts')
      .mkdir('C:\\Users\\Me\\WS\\src\\nested\\inner')
      .file('C:\\Users\\Me\\WS\\Program Files Here\\tool.txt')
      .shortName('C:\\Users\\Me\\WS\\Program Files Here', 'PROGRA~1')
      .file('C:\\Users\\Me\\Secrets\\key.txt')
      .file('C:\\Users\\Me\\WS-Secrets\\x.txt')
      .file('D:\\private\\data.txt')
      .junction('C:\\Users\\Me\\WS\\jct', 'C:\\Users\\Me\\Secrets')
      .junction('C:\\Users\\Me\\WS\\outside link', 'C:\\Users\\Me\\Secrets')
      .shortName('C:\\Users\\Me\\WS\\outside link', 'OUTSID~1')
      .volumeJunction('C:\\Users\\Me\\WS\\mnt', '\\??\\Volume{d1}\\private')
      .junction('C:\\Users\\Me\\WS\\deep', 'C:\\Users\\Me\\WS\\src\\nested\\inner')
      .symlink('C:\\Users\\Me\\WS\\unc', '\\\\attacker\\share\\x');
    win32 = platformFor('win32', { disk });
  });

  const inside = (target: string, roots: readonly string[] = [root]): Promise<boolean> =>
    isInside(target, roots, win32);

  it('accepts what is inside however the drive letter, the case and the separators are spelled', async () => {
    assert.equal(await inside('C:\\USERS\\ME\\ws\\src\\a.ts'), true);
    assert.equal(await inside('c:/users/me/ws/new/deep/file.ts'), true);
    assert.equal(await inside('C:\\Users\\Me\\WS'), true);
    assert.equal(await resolveReal('c:/users/me/ws/SRC/A.TS', win32), 'C:\\Users\\Me\\WS\\src\\a.ts');
  });

  it('refuses `..\\` hops out, in any case, and a sibling that shares the prefix', async () => {
    assert.equal(await inside('C:\\Users\\Me\\WS\\src\\..\\..\\Secrets\\key.txt'), false);
    assert.equal(await inside('c:\\users\\me\\ws\\..\\ws-secrets\\x.txt'), false);
    assert.equal(await inside('C:/Users/Me/WS/src/../../Secrets/new.txt'), false);
  });

  it('applies `..` by name before following a link, as Windows does', async () => {
    // deep → WS\src\nested\inner. POSIX would climb from the target (inside, WS\src\x.txt); Windows
    // drops `deep\..` first and opens C:\Users\Me\x.txt, outside.
    const target = 'C:\\Users\\Me\\WS\\deep\\..\\..\\x.txt';
    assert.equal(await resolveReal(target, win32), 'C:\\Users\\Me\\x.txt');
    assert.equal(await inside(target), false);
    assert.equal(await disk.realpath('C:\\Users\\Me\\WS\\deep\\..\\src'), 'C:\\Users\\Me\\WS\\src');
  });

  it('refuses a junction to a folder outside, named in any case or by its 8.3 short name', async () => {
    assert.equal(await inside('C:\\Users\\Me\\WS\\jct\\key.txt'), false);
    assert.equal(await inside('c:\\users\\me\\ws\\JCT\\new.txt'), false);
    assert.equal(await inside('C:\\Users\\Me\\WS\\OUTSID~1\\key.txt'), false);
    assert.equal(await inside('C:\\Users\\Me\\WS\\outside link\\key.txt'), false);
  });

  it('refuses a junction to another volume, which Node reports as a plain folder', async () => {
    assert.equal((await disk.lstat('C:\\Users\\Me\\WS\\mnt')).isSymbolicLink(), false);
    assert.equal(await inside('C:\\Users\\Me\\WS\\mnt\\data.txt'), false);
    assert.equal(await inside('C:\\Users\\Me\\WS\\mnt\\new.txt'), false);
  });

  it('accepts a file inside named by its folder’s 8.3 short name, and a root given by one', async () => {
    assert.equal(await inside('C:\\Users\\Me\\WS\\PROGRA~1\\tool.txt'), true);
    assert.equal(
      await inside('C:\\Users\\Me\\WS\\Program Files Here\\tool.txt', ['C:\\Users\\Me\\WS\\PROGRA~1']),
      true,
    );
  });

  it('never looks up a share of another host: not named, not through a link', async () => {
    assert.equal(await inside('\\\\attacker\\share\\x\\a.txt'), false);
    assert.equal(await inside('C:\\Users\\Me\\WS\\unc\\a.txt'), false);
    assert.equal(await inside('D:\\private\\data.txt'), false);
    assert.deepEqual(disk.contacted, []);
  });

  it('refuses paths Windows would not take as written: device namespace, drive-relative, reserved, trailing dot', async () => {
    for (const target of [
      '\\\\?\\C:\\Users\\Me\\WS\\..\\Secrets\\key.txt',
      '\\\\.\\C:\\Users\\Me\\WS\\a.txt',
      'C:Users\\Me\\WS\\a.txt',
      '\\Users\\Me\\WS\\a.txt',
      'C:\\Users\\Me\\WS\\CON',
      'C:\\Users\\Me\\WS\\src\\aux.ts',
      'C:\\Users\\Me\\WS\\jct.',
      'C:\\Users\\Me\\WS\\src\\a.ts ',
      'C:\\Users\\Me\\WS\\src\\a.ts:stream',
    ]) {
      assert.equal(await inside(target), false, target);
    }
  });

  describe('a write, create or delete on the user’s behalf (checkWriteTarget)', () => {
    const check = (target: string) => checkWriteTarget(target, root, win32);

    it('writes in place inside, whatever the case', async () => {
      assert.deepEqual(await check('C:\\USERS\\me\\ws\\src\\a.ts'), { kind: 'in-place' });
      assert.deepEqual(await check('c:/users/me/ws/src/new/b.ts'), { kind: 'in-place' });
    });

    it('refuses to go through a junction, by any name, and replaces one named as the file', async () => {
      assert.match(
        refusal(await check('C:\\Users\\Me\\WS\\jct\\key.txt')),
        /jct\/ is now a link to a folder outside/,
      );
      assert.match(
        refusal(await check('C:\\Users\\Me\\WS\\OUTSID~1\\key.txt')),
        /is now a link to a folder outside/,
      );
      assert.deepEqual(await check('C:\\Users\\Me\\WS\\jct'), { kind: 'replace', what: 'a link' });
    });

    it('refuses to go through a junction to another volume', async () => {
      assert.match(
        refusal(await check('C:\\Users\\Me\\WS\\mnt\\evil.txt')),
        /mnt\/ is now a link to a folder outside/,
      );
    });

    it('refuses a `..\\` hop out and names Windows would not keep', async () => {
      assert.match(refusal(await check('C:\\Users\\Me\\WS\\src\\..\\..\\Secrets\\key.txt')), /not inside/);
      assert.match(refusal(await check('C:\\Users\\Me\\WS\\src\\NUL.ts')), /reserves/);
      assert.match(refusal(await check('C:\\Users\\Me\\WS\\src.\\a.ts')), /dot or a space/);
    });
  });
});

function refusal(target: Awaited<ReturnType<typeof checkWriteTarget>>): string {
  assert.equal(target.kind, 'refused', JSON.stringify(target));
  return target.kind === 'refused' ? target.reason : '';
}
