import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, lstat, mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { PassThrough, Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Unpack, type ReadEntry } from 'tar';
import bz2 from 'unbzip2-stream';
import * as yauzl from 'yauzl';
import {
  ARCHIVE_LIMITS,
  ArchiveRefusedError,
  ArchiveTotals,
  checkLinkTarget,
  type ArchiveEntry,
  type ArchiveLimits,
} from './archiveEntries';

/** How an archive is read, by its file name (the registry's FORMAT.md: zip, tar.gz, tgz, tar.bz2, tbz2, or a raw binary). */
export type ArchiveKind = 'tar' | 'tar.gz' | 'tar.bz2' | 'zip' | 'raw';

export function archiveKind(name: string): ArchiveKind {
  const lower = name.toLowerCase();
  if (/\.(tar\.gz|tgz)$/.test(lower)) {
    return 'tar.gz';
  }
  if (/\.(tar\.bz2|tbz2?)$/.test(lower)) {
    return 'tar.bz2';
  }
  if (lower.endsWith('.tar')) {
    return 'tar';
  }
  if (lower.endsWith('.zip')) {
    return 'zip';
  }
  if (/\.(tar\.xz|txz|tar\.zst|tzst|7z|rar)$/.test(lower)) {
    throw new ArchiveRefusedError(
      `${name} is in a format the ACP Registry does not allow (zip, tar.gz, tar.bz2)`,
    );
  }
  return 'raw';
}

export interface UnpackOptions {
  /** The program a raw binary becomes (the registry's `cmd`), relative to `into`. */
  readonly cmd: string;
  readonly limits?: ArchiveLimits;
  /** The file bytes written so far. */
  readonly progress?: (unpackedBytes: number) => void;
  readonly signal?: AbortSignal;
}

/**
 * Unpacks `archive` into the empty folder `into`, in this process with maintained streaming libraries
 * (`tar`, `yauzl`, `unbzip2-stream`), never the system's `tar`/`unzip` (whose checks differ between
 * macOS, Windows and Linux). Every entry passes `ArchiveTotals` before anything of it is written, and
 * nothing is written through a link the archive made. Throws `ArchiveRefusedError` for an archive
 * that breaks a rule; the caller removes what was unpacked.
 */
export async function unpackArchive(
  archive: string,
  kind: ArchiveKind,
  into: string,
  options: UnpackOptions,
): Promise<void> {
  const totals = new ArchiveTotals(options.limits ?? ARCHIVE_LIMITS);
  switch (kind) {
    case 'zip':
      return unpackZip(archive, into, totals, options);
    case 'raw':
      return copyRaw(archive, into, options.cmd);
    default:
      return unpackTar(archive, kind, into, totals, options);
  }
}

async function copyRaw(archive: string, into: string, cmd: string): Promise<void> {
  const program = path.resolve(into, cmd);
  if (!program.startsWith(into + path.sep)) {
    throw new Error(`The registry's program path ${cmd} leaves the install folder.`);
  }
  await mkdir(path.dirname(program), { recursive: true });
  await copyFile(archive, program);
}

/**
 * What the decompressed tar stream may hold so far: the files' declared bytes, room for each entry's
 * headers (its own, a pax header, a long name: 5 KiB), and 4 MiB for the chunk being read and the end
 * blocks. More is not an archive's content — trailing data, which the tar parser also reads ever more
 * slowly — and stops the unpacking.
 */
function tarStreamAllowance(totals: ArchiveTotals): number {
  return totals.unpackedBytes + totals.entryCount * 5 * 1024 + 4 * 1024 * 1024;
}

async function unpackTar(
  archive: string,
  kind: Exclude<ArchiveKind, 'zip' | 'raw'>,
  into: string,
  totals: ArchiveTotals,
  options: UnpackOptions,
): Promise<void> {
  const limits = options.limits ?? ARCHIVE_LIMITS;
  let refused: Error | undefined;
  const unpack: Unpack = new Unpack({
    cwd: into,
    strict: true,
    preservePaths: false,
    maxDepth: limits.maxDepth,
    filter: (_path, entry) => {
      try {
        totals.admit(tarEntry(entry as ReadEntry));
        options.progress?.(totals.unpackedBytes);
        return true;
      } catch (error) {
        refused ??= error as Error;
        unpack.abort(refused);
        return false;
      }
    },
  });
  const decompress: Transform =
    kind === 'tar.gz'
      ? createGunzip()
      : kind === 'tar.bz2'
        ? (bz2() as unknown as Transform)
        : new PassThrough();
  try {
    await pipeline(
      createReadStream(archive),
      decompress,
      byteCap(() => tarStreamAllowance(totals)),
      into_(unpack),
      ...(options.signal ? [{ signal: options.signal }] : []),
    );
  } catch (error) {
    throw refused ?? error;
  }
}

function tarEntry(entry: ReadEntry): ArchiveEntry {
  const kind =
    entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile'
      ? 'file'
      : entry.type === 'Directory'
        ? 'directory'
        : entry.type === 'SymbolicLink'
          ? 'symlink'
          : entry.type === 'Link'
            ? 'hardlink'
            : 'other';
  return {
    name: entry.path,
    kind,
    size: entry.size ?? 0,
    ...(entry.linkpath !== undefined ? { target: entry.linkpath } : {}),
  };
}

/** Fails the stream once more bytes went through than `allowed()` says (a bomb's tail is never read). */
function byteCap(allowed: () => number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      const refused =
        seen > allowed() &&
        new ArchiveRefusedError(`it holds more than its entries (${seen} bytes unpacked)`);
      done(refused || null, chunk);
    },
  });
}

/** `unpack` (an event emitter with write/end, not a Node stream) as the end of a pipeline. */
function into_(unpack: Unpack): Writable {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (unpack.write(chunk)) {
        done();
      } else {
        unpack.once('drain', () => done());
      }
    },
    final(done) {
      unpack.once('close', () => done());
      unpack.end();
    },
  });
  unpack.on('error', (error: Error) => sink.destroy(error));
  return sink;
}

async function unpackZip(
  archive: string,
  into: string,
  totals: ArchiveTotals,
  options: UnpackOptions,
): Promise<void> {
  const limits = options.limits ?? ARCHIVE_LIMITS;
  const zip = await yauzl.openPromise(archive, {
    lazyEntries: true,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new ArchiveRefusedError(`it has more than ${limits.maxEntries} entries`);
    }
    for await (const entry of zip.eachEntry()) {
      options.signal?.throwIfAborted();
      const checked = zipEntry(entry);
      totals.admit(checked);
      await writeZipEntry(zip, entry, checked, into, options.signal);
      options.progress?.(totals.unpackedBytes);
    }
  } finally {
    zip.close();
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

function zipEntry(entry: yauzl.Entry): ArchiveEntry & { readonly mode: number } {
  const mode = (entry.externalFileAttributes >>> 16) & 0xffff;
  const type = mode & S_IFMT;
  const kind =
    entry.fileName.endsWith('/') || type === S_IFDIR
      ? 'directory'
      : type === S_IFLNK
        ? 'symlink'
        : type === 0 || type === S_IFREG
          ? 'file'
          : 'other';
  // A link's target is its content: read (bounded) and checked in `writeZipEntry`.
  return { name: entry.fileName, kind, size: kind === 'file' ? entry.uncompressedSize : 0, mode };
}

async function writeZipEntry(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  checked: ArchiveEntry & { readonly mode: number },
  into: string,
  signal?: AbortSignal,
): Promise<void> {
  const target = path.join(into, ...checked.name.split('/').filter((part) => part !== '' && part !== '.'));
  await makeParents(into, path.dirname(target));
  if (checked.kind === 'directory') {
    await makeParents(into, target);
    return;
  }
  const content = await zip.openReadStreamPromise(entry);
  if (checked.kind === 'symlink') {
    const linkTarget = (await readSmall(content, ARCHIVE_LIMITS.maxPathChars)).toString('utf8');
    checkLinkTarget(checked.name, linkTarget);
    await symlink(linkTarget, target);
    return;
  }
  const executable = (checked.mode & 0o111) !== 0;
  await pipeline(
    content,
    createWriteStream(target, { flags: 'wx', mode: executable ? 0o755 : 0o644 }),
    ...(signal ? [{ signal }] : []),
  );
}

/** Makes `dir` and the folders above it up to `root`, refusing to go through a link or a file. */
async function makeParents(root: string, dir: string): Promise<void> {
  let current = root;
  for (const part of path.relative(root, dir).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const found = await lstat(current).catch(() => undefined);
    if (!found) {
      await mkdir(current);
    } else if (!found.isDirectory()) {
      throw new ArchiveRefusedError(
        `an entry would be written through ${JSON.stringify(path.relative(root, current))}, which is ${found.isSymbolicLink() ? 'a link' : 'a file'}`,
      );
    }
  }
}

async function readSmall(stream: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw new ArchiveRefusedError(`a link's target is longer than ${max} characters`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
