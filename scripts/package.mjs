/**
 * Builds the installable extension — `npm run package` — and checks it: a production build
 * (`esbuild.mjs --production`: minified, no source maps), then `vsce package` (the @vscode/vsce devDependency,
 * offline), then the package's file list against the files the extension loads at runtime. The same `.vsix`
 * goes to the Visual Studio Marketplace and to Open VSX.
 *
 * The runtime file list is derived, not hand-kept: package.json's `main` and icons, every
 * `asset(dist|media, '…')` / `joinPath(…, 'dist'|'media', …)` in src/, and whatever those CSS files
 * `@import` or `url()` (the codicon font). A new asset the code loads is therefore checked without anyone
 * remembering to list it.
 *
 *   node scripts/package.mjs [--out <file.vsix>]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCodeServer, repoRoot } from './tools.mjs';

/** What a package must never hold: sources, tests, maps, dependencies, tooling. */
export const FORBIDDEN_IN_PACKAGE = [
  /^src\//,
  /^test\//,
  /^webview\//,
  /^scripts\//,
  /^node_modules\//,
  /^\.tools\//,
  /\.map$/,
  /\.tsx?$/,
  /(^|\/)\.git(\/|$)/,
];

/** The `.vsix` file `npm run package` writes: `<name>-<version>.vsix` in the repository. */
export function defaultVsixPath(root = repoRoot) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `${manifest.name}-${manifest.version}.vsix`);
}

/**
 * Production build + `vsce package`. Returns the `.vsix` path.
 * @param {{ out?: string, quiet?: boolean }} [options]
 */
export function buildVsix({ out = defaultVsixPath(), quiet = false } = {}) {
  const stdio = quiet ? 'pipe' : 'inherit';
  run(process.execPath, ['esbuild.mjs', '--production'], stdio);
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  // The bundles carry their dependencies: vsce must not collect node_modules (and need not run npm).
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], stdio);
  return out;
}

function run(
  /** @type {string} */ file,
  /** @type {string[]} */ args,
  /** @type {'pipe' | 'inherit'} */ stdio,
) {
  const result = spawnSync(file, args, { cwd: repoRoot, stdio, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = stdio === 'pipe' ? `\n${result.stdout}${result.stderr}` : '';
    throw new Error(
      `${[file, ...args].join(' ')} failed (${result.signal ?? `exit ${result.status}`})${output}`,
    );
  }
}

/**
 * The paths inside a `.vsix` (a zip), read from its central directory. The extension's own files are under
 * `extension/`.
 * @param {string} vsixPath
 * @returns {string[]}
 */
export function vsixEntries(vsixPath) {
  const zip = readFileSync(vsixPath);
  const END_OF_DIRECTORY = 0x06054b50;
  const DIRECTORY_ENTRY = 0x02014b50;
  // The end record is the last 22 bytes, unless a zip comment (up to 64 KiB) follows it.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) {
    throw new Error(`${vsixPath} is not a zip file (no end of central directory)`);
  }
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new Error(`${vsixPath}: corrupt central directory at entry ${i}`);
    }
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** The extension's own files in a package, relative to the extension root (`dist/webview.js`, …). */
export function extensionFiles(/** @type {string[]} */ entries) {
  return entries
    .filter((name) => name.startsWith('extension/'))
    .map((name) => name.slice('extension/'.length));
}

/**
 * Files the extension loads at runtime, relative to its root, derived from package.json, the sources under
 * src/ and the CSS those load. Needs a build (dist/codicon.css is copied there by esbuild.mjs).
 * @returns {string[]} sorted
 */
export function runtimeFiles(root = repoRoot) {
  const files = new Set(['package.json']);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (typeof manifest.main === 'string') {
    files.add(normalise(/\.[cm]?js$/.test(manifest.main) ? manifest.main : `${manifest.main}.js`));
  }
  for (const icon of manifestIcons(manifest)) {
    files.add(normalise(icon));
  }
  for (const source of sourceFiles(join(root, 'src'))) {
    for (const file of assetsReferencedBy(readFileSync(source, 'utf8'))) {
      files.add(file);
    }
  }
  // The bundles the chat loads on first use, by name (src/lazyBundles.json).
  for (const name of Object.keys(JSON.parse(readFileSync(join(root, 'src', 'lazyBundles.json'), 'utf8')))) {
    files.add(`dist/${name}.js`);
  }
  // Follow stylesheets to what they import and load (chat.css → chat/*.css, codicon.css → codicon.ttf).
  const pending = [...files].filter((file) => file.endsWith('.css'));
  while (pending.length > 0) {
    const css = /** @type {string} */ (pending.pop());
    const path = join(root, css);
    if (!existsSync(path)) {
      continue; // reported as missing by the caller
    }
    for (const reference of cssReferences(readFileSync(path, 'utf8'))) {
      const file = posix.normalize(posix.join(posix.dirname(css), reference));
      if (!files.has(file)) {
        files.add(file);
        if (file.endsWith('.css')) {
          pending.push(file);
        }
      }
    }
  }
  return [...files].sort();
}

/** Icon paths in package.json: the gallery icon and every contribution's `icon` that is a file, not `$(codicon)`. */
function manifestIcons(/** @type {Record<string, unknown>} */ manifest) {
  /** @type {string[]} */
  const icons = [];
  const visit = (/** @type {unknown} */ value, /** @type {string | undefined} */ key) => {
    if (typeof value === 'string') {
      if (key === 'icon' && !value.startsWith('$(')) {
        icons.push(value);
      }
    } else if (Array.isArray(value)) {
      value.forEach((item) => visit(item, undefined));
    } else if (value && typeof value === 'object') {
      for (const [childKey, child] of Object.entries(value)) {
        // { "icon": { "light": "…", "dark": "…" } }
        visit(child, key === 'icon' && (childKey === 'light' || childKey === 'dark') ? 'icon' : childKey);
      }
    }
  };
  visit(manifest.icon, 'icon');
  visit(manifest.contributes, undefined);
  return icons;
}

/**
 * `dist/…` and `media/…` files a source file names: `joinPath(base, 'dist', 'demo-agent.js')`, and
 * `asset(dist, 'codicon.css')` where `dist = …joinPath(…, 'dist')`.
 * @param {string} text
 * @returns {string[]}
 */
export function assetsReferencedBy(text) {
  const found = [];
  /** @type {Map<string, string>} */
  const folders = new Map();
  for (const match of text.matchAll(/joinPath\(\s*[\w.]+((?:\s*,\s*'[^']+')+)\s*\)/g)) {
    const parts = [...(match[1] ?? '').matchAll(/'([^']+)'/g)].map((part) => part[1]);
    if (parts[0] !== 'dist' && parts[0] !== 'media') {
      continue;
    }
    if (parts.length === 1) {
      const declared = text.slice(0, match.index).match(/(?:const|let)\s+(\w+)\s*=\s*[\w.]*$/);
      if (declared?.[1]) {
        folders.set(declared[1], parts[0]);
      }
    } else {
      found.push(parts.join('/'));
    }
  }
  for (const match of text.matchAll(/\basset\(\s*(\w+)\s*,\s*'([^']+)'\s*\)/g)) {
    const folder = folders.get(match[1] ?? '');
    if (folder) {
      found.push(`${folder}/${match[2]}`);
    }
  }
  return found.map(normalise);
}

/**
 * Relative files a stylesheet loads: `@import url('a.css')`, `@import 'a.css'`, `url("./font.ttf?hash")`.
 * Data URIs, web addresses and fragments are not files of the package.
 * @param {string} css
 * @returns {string[]}
 */
export function cssReferences(css) {
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const references = [];
  for (const match of withoutComments.matchAll(
    /@import\s+['"]([^'"]+)['"]|url\(\s*['"]?([^'")]+?)['"]?\s*\)/g,
  )) {
    const reference = (match[1] ?? match[2] ?? '').trim();
    if (reference === '' || /^(data:|[a-z][\w+.-]*:\/\/|#)/i.test(reference)) {
      continue;
    }
    references.push(reference.replace(/[?#].*$/, ''));
  }
  return references;
}

function sourceFiles(/** @type {string} */ dir) {
  /** @type {string[]} */
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...sourceFiles(path));
    } else if (/\.ts$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

function normalise(/** @type {string} */ file) {
  return posix.normalize(file.replace(/\\/g, '/')).replace(/^\.\//, '');
}

/**
 * What is wrong with a package's file list: runtime files it lacks and files it must not hold.
 * @param {string[]} packaged  extension files (relative to the extension root)
 * @param {string[]} required  runtimeFiles()
 * @returns {{ missing: string[], forbidden: string[] }}
 */
export function checkPackageFiles(packaged, required) {
  const have = new Set(packaged);
  return {
    missing: required.filter((file) => !have.has(file)),
    forbidden: packaged.filter((file) => FORBIDDEN_IN_PACKAGE.some((pattern) => pattern.test(file))),
  };
}

/**
 * Installs a `.vsix` into an extensions folder with code-server's own `--install-extension` (offline: the
 * file is local), the way a user installs a downloaded release.
 * @param {string} vsixPath
 * @param {{ extensionsDir: string, userDataDir: string }} dirs
 * @returns {Promise<string>} what code-server printed
 */
export async function installVsix(vsixPath, { extensionsDir, userDataDir }) {
  const tools = await ensureCodeServer({ quiet: true });
  const result = spawnSync(
    tools.node,
    [
      tools.entry,
      '--config',
      '/dev/null',
      '--extensions-dir',
      extensionsDir,
      '--user-data-dir',
      userDataDir,
      '--install-extension',
      resolve(vsixPath),
    ],
    {
      encoding: 'utf8',
      timeout: 120_000,
      // Keep code-server's own folders out of $HOME, as scripts/codeServer.mjs does.
      env: {
        ...process.env,
        XDG_CONFIG_HOME: userDataDir,
        XDG_DATA_HOME: userDataDir,
        XDG_CACHE_HOME: userDataDir,
      },
    },
  );
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  if (result.status !== 0) {
    throw new Error(
      `code-server --install-extension failed (${result.signal ?? `exit ${result.status}`}):\n${output}`,
    );
  }
  return output;
}

// Run directly (`npm run package`): build, check, report.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const outFlag = process.argv.indexOf('--out');
    const out = outFlag > 0 ? resolve(process.argv[outFlag + 1] ?? '') : defaultVsixPath();
    buildVsix({ out });
    const packaged = extensionFiles(vsixEntries(out));
    const { missing, forbidden } = checkPackageFiles(packaged, runtimeFiles());
    if (missing.length > 0 || forbidden.length > 0) {
      throw new Error(
        [
          missing.length > 0 ? `missing runtime files: ${missing.join(', ')} (see .vscodeignore)` : '',
          forbidden.length > 0 ? `files that must not ship: ${forbidden.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    }
    const kib = (statSync(out).size / 1024).toFixed(0);
    console.log(
      `[package] ${relative(process.cwd(), out) || out}: ${packaged.length} files, ${kib} KiB; every runtime file present.`,
    );
    console.log(
      `[package] install: code --install-extension ${dirname(out) === repoRoot ? relative(repoRoot, out) : out}`,
    );
  } catch (error) {
    console.error(`[package] ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
