import * as path from 'node:path';
import type { Disk, EntryStats } from '../../../src/core/platform/platform';

/**
 * A Windows disk in memory, for the `Disk` calls confinement makes, so win32 semantics run on Linux.
 * It answers as Node (libuv) does on NTFS:
 * - a path is made absolute and `..` applied by name before anything is looked up (Win32 does), `/`
 *   and `\` alike, a trailing dot or space dropped from the last name;
 * - names are found whatever their case, and by their 8.3 short name (`PROGRA~1`);
 * - `lstat` reports a symbolic link and a junction to a drive (`\??\C:\…`) as a link, `readlink`
 *   gives a junction's target without `\??\`; a junction to a volume (`\??\Volume{…}\`) is a plain
 *   directory for `lstat` and cannot be read, though it leads to the other volume (`stat`, `realpath`);
 * - `realpath` spells every name as stored (long names, stored case, upper-case drive letter);
 * - a share (`\\host\share`) that is not simulated is a network lookup: its host is recorded in `contacted`.
 */
export class SimulatedWindowsDisk implements Disk {
  /** Hosts of `\\host\share` paths that were looked up (each a connection with the user's credentials). */
  readonly contacted: string[] = [];
  private readonly volumes = new Map<string, Volume>();
  private nextId = 1n;

  /** Adds a volume: a drive (`C:`) or a share (`\\server\share`), with an optional `Volume{guid}` name. */
  volume(root: string, guid?: string): this {
    const volume: Volume = {
      root: path.win32.normalize(`${root}\\`),
      dev: BigInt(this.volumes.size + 1),
      top: this.dir(),
    };
    this.volumes.set(volumeKey(root), volume);
    if (guid !== undefined) {
      this.volumes.set(volumeKey(`\\\\?\\${guid}`), volume);
    }
    return this;
  }

  mkdir(folder: string): this {
    this.place(folder, () => this.dir(), true);
    return this;
  }

  file(file: string): this {
    this.place(file, () => ({ kind: 'file', id: this.nextId++ }));
    return this;
  }

  /** A symbolic link (needs admin or Developer Mode on Windows); `target` as written, relative or not. */
  symlink(link: string, target: string): this {
    this.place(link, () => ({ kind: 'link', id: this.nextId++, target, readable: true }));
    return this;
  }

  /** A junction to a folder on a drive (`mklink /J`, no rights needed): `target` absolute, stored as NT does. */
  junction(link: string, target: string): this {
    const stored = `\\??\\${path.win32.resolve(target)}`;
    this.place(link, () => ({ kind: 'link', id: this.nextId++, target: stored, readable: true }));
    return this;
  }

  /** A junction to a volume by its GUID name (`\??\Volume{…}\folder`), which libuv reports as a directory. */
  volumeJunction(link: string, target: string): this {
    this.place(link, () => ({ kind: 'link', id: this.nextId++, target, readable: false }));
    return this;
  }

  /** Gives the existing entry `file` the 8.3 short name `short`. */
  shortName(file: string, short: string): this {
    const found = this.walk(file, false);
    found.entry.short = short;
    found.parent.entries.set(nameKey(short), found.entry);
    return this;
  }

  async lstat(file: string): Promise<EntryStats> {
    return this.stats(this.walk(file, false));
  }

  async stat(file: string): Promise<EntryStats> {
    return this.stats(this.walk(file, true));
  }

  async readlink(file: string): Promise<string> {
    const node = this.walk(file, false).entry.node;
    if (node.kind !== 'link' || !node.readable) {
      throw errno('UNKNOWN', file);
    }
    return ntTarget(node.target);
  }

  async realpath(file: string): Promise<string> {
    return this.walk(file, true).spelled;
  }

  async rename(): Promise<void> {
    throw new Error('not simulated: the held-file tests use the real disk');
  }

  async rm(): Promise<void> {
    throw new Error('not simulated: the held-file tests use the real disk');
  }

  private dir(): Dir {
    return { kind: 'dir', id: this.nextId++, entries: new Map() };
  }

  private stats(found: Found): EntryStats {
    const node = found.entry.node;
    const isLink = node.kind === 'link' && node.readable;
    return {
      isSymbolicLink: () => isLink,
      isDirectory: () => node.kind === 'dir' || (node.kind === 'link' && !node.readable),
      isFile: () => node.kind === 'file',
      dev: found.volume.dev,
      ino: node.id,
    };
  }

  private place(file: string, make: () => Node, allowExisting = false): void {
    const { volume, names } = this.split(file);
    let current: Dir = volume.top;
    for (const [index, name] of names.entries()) {
      const existing = current.entries.get(nameKey(name));
      if (index === names.length - 1) {
        if (existing === undefined) {
          current.entries.set(nameKey(name), { name, node: make() });
        } else if (!allowExisting) {
          throw new Error(`${file} exists already`);
        }
        return;
      }
      if (existing === undefined) {
        const entry: Entry = { name, node: this.dir() };
        current.entries.set(nameKey(name), entry);
        current = entry.node as Dir;
      } else if (existing.node.kind === 'dir') {
        current = existing.node;
      } else {
        throw new Error(`${file}: ${name} is not a folder`);
      }
    }
  }

  private split(file: string): { volume: Volume; names: string[] } {
    const absolute = path.win32.resolve(file);
    const root = path.win32.parse(absolute).root;
    const volume = this.volumes.get(volumeKey(root));
    if (volume === undefined) {
      const share = /^\\\\([^\\]+)\\/.exec(root);
      if (share !== null && share[1] !== '?') {
        this.contacted.push(share[1] as string);
      }
      throw errno('ENOENT', file);
    }
    const names = absolute
      .slice(root.length)
      .split('\\')
      .filter((name) => name !== '');
    const last = names.length - 1;
    if (last >= 0) {
      names[last] = (names[last] as string).replace(/[. ]+$/, '');
    }
    return { volume, names };
  }

  /** Finds `file`, following every link on the way (and the last one too when `followLast`). */
  private walk(file: string, followLast: boolean, hops = 0): Found {
    if (hops > 63) {
      throw errno('ELOOP', file);
    }
    const { volume, names } = this.split(file);
    let found: Found = {
      volume,
      parent: volume.top,
      entry: { name: '', node: volume.top },
      spelled: volume.root,
    };
    for (const [index, name] of names.entries()) {
      const current = found.entry.node;
      if (current.kind !== 'dir') {
        throw errno(current.kind === 'file' ? 'ENOTDIR' : 'ENOENT', file);
      }
      const entry = current.entries.get(nameKey(name));
      if (entry === undefined) {
        throw errno('ENOENT', file);
      }
      const spelled = path.win32.join(found.spelled, entry.name);
      const isLast = index === names.length - 1;
      if (entry.node.kind === 'link' && (!isLast || followLast)) {
        const target = ntTarget(entry.node.target);
        const rest = names.slice(index + 1);
        return this.walk(path.win32.resolve(found.spelled, target, ...rest), followLast, hops + 1);
      }
      found = { volume, parent: current, entry, spelled };
    }
    return found;
  }
}

interface Dir {
  readonly kind: 'dir';
  readonly id: bigint;
  readonly entries: Map<string, Entry>;
}
type Node =
  | Dir
  | { readonly kind: 'file'; readonly id: bigint }
  | { readonly kind: 'link'; readonly id: bigint; readonly target: string; readonly readable: boolean };
interface Entry {
  readonly name: string;
  short?: string;
  readonly node: Node;
}
interface Volume {
  readonly root: string;
  readonly dev: bigint;
  readonly top: Dir;
}
interface Found {
  readonly volume: Volume;
  readonly parent: Dir;
  readonly entry: Entry;
  /** The path as the disk spells it. */
  readonly spelled: string;
}

/** A reparse point's NT target as Win32 reads it: `\??\C:\x` is `C:\x`, `\??\Volume{…}` is `\\?\Volume{…}`. */
function ntTarget(target: string): string {
  if (!target.startsWith('\\??\\')) {
    return target;
  }
  return /^\\\?\?\\[a-z]:/i.test(target) ? target.slice(4) : `\\\\?\\${target.slice(4)}`;
}

function nameKey(name: string): string {
  return name.toUpperCase();
}

function volumeKey(root: string): string {
  return path.win32.normalize(`${root}\\`).replace(/\\+$/, '').toUpperCase();
}

function errno(code: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${file}`), { code });
}
