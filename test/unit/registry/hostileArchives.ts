import { Header } from 'tar';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/*
 * Archives a hostile registry could serve, written byte by byte: what `tar` and `zip` refuse to make
 * (entries that climb out, absolute paths, links out, devices, FIFOs, sizes that lie) and bombs
 * (1.2 MB that unpacks to 1.2 GB) built in milliseconds from repeated compressed pieces.
 */

const BLOCK = 512;
const MIB = 1024 * 1024;

export interface TarEntry {
  readonly path: string;
  readonly type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'FIFO' | 'CharacterDevice';
  readonly linkpath?: string;
  readonly content?: Buffer | string;
  /** The declared size (default: the content's). */
  readonly size?: number;
  readonly mode?: number;
}

function tarHeader(entry: TarEntry, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  new Header({
    path: entry.path,
    type: entry.type ?? 'File',
    size,
    mode: entry.mode ?? (entry.type === 'Directory' ? 0o755 : 0o644),
    mtime: new Date(0),
    ...(entry.linkpath !== undefined ? { linkpath: entry.linkpath } : {}),
  }).encode(block, 0);
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** An uncompressed tar of `entries`, written as given (no normalisation of their paths). */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const content = Buffer.from(entry.content ?? '');
    const size = entry.type === undefined || entry.type === 'File' ? content.length : 0;
    parts.push(tarHeader(entry, entry.size ?? size), content, padding(content.length));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

export function tarGzOf(entries: readonly TarEntry[]): Buffer {
  return gzipSync(tarOf(entries));
}

/**
 * A `.tar.gz` of `files` files of `mibEach` MiB of zeros each: gzip members (one per MiB) concatenated,
 * as gzip allows, so a 1.2 GB bomb is 1.2 MB and made at once.
 */
export function tarGzBomb(files: number, mibEach: number): Buffer {
  const zeros = gzipSync(Buffer.alloc(MIB), { level: 9 });
  const members: Buffer[] = [];
  for (let n = 0; n < files; n++) {
    members.push(gzipSync(tarHeader({ path: `bin/part${n}` }, mibEach * MIB)));
    for (let m = 0; m < mibEach; m++) {
      members.push(zeros);
    }
  }
  members.push(gzipSync(Buffer.alloc(2 * BLOCK)));
  return Buffer.concat(members);
}

export interface ZipEntry {
  readonly name: string;
  readonly content?: Buffer | string;
  /** Unix mode (with the file type bits: `0o120777` is a link, whose content is its target). */
  readonly mode?: number;
  /** The size the zip declares, when it lies. */
  readonly declaredSize?: number;
  /** Already deflated data, with its real size and CRC (a bomb). */
  readonly deflated?: { readonly data: Buffer; readonly size: number; readonly crc: number };
}

/** A zip of `entries` (deflated, made by "Unix" so modes count), written as given: names are not checked. */
export function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const raw = Buffer.from(entry.content ?? '');
    const data = entry.deflated?.data ?? deflateRawSync(raw);
    const size = entry.declaredSize ?? entry.deflated?.size ?? raw.length;
    const crc = entry.deflated?.crc ?? crc32(raw);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(8, 10);
    record.writeUInt32LE(crc >>> 0, 16);
    record.writeUInt32LE(data.length, 20);
    record.writeUInt32LE(size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    record.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(record, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** `mib` MiB of zeros as raw deflate, from one flushed piece repeated (a valid stream: each piece is byte-aligned). */
export function deflatedZeros(mib: number): { data: Buffer; size: number; crc: number } {
  const piece = deflateRawSync(Buffer.alloc(MIB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const data = Buffer.concat([...Array.from({ length: mib }, () => piece), Buffer.from([0x03, 0x00])]);
  let crc = 0;
  const zero = Buffer.alloc(MIB);
  for (let n = 0; n < mib; n++) {
    crc = crc32(zero, crc);
  }
  return { data, size: mib * MIB, crc };
}
