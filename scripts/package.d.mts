// Types for package.mjs, for the TypeScript tests that import it.

/** What a package must never hold: sources, tests, maps, dependencies, tooling. */
export const FORBIDDEN_IN_PACKAGE: readonly RegExp[];
/** `<repo>/<name>-<version>.vsix`, where `npm run package` writes. */
export function defaultVsixPath(root?: string): string;
/** Production build + `vsce package`; returns the `.vsix` path. */
export function buildVsix(options?: { out?: string; quiet?: boolean }): string;
/** The paths inside a `.vsix` (its zip central directory). */
export function vsixEntries(vsixPath: string): string[];
/** The extension's own files of a package, relative to the extension root. */
export function extensionFiles(entries: string[]): string[];
/** Files the extension loads at runtime, derived from package.json, src/ and the CSS they load. Sorted. */
export function runtimeFiles(root?: string): string[];
/** `dist/…` and `media/…` files a source file names. */
export function assetsReferencedBy(text: string): string[];
/** Relative files a stylesheet imports or loads with url(). */
export function cssReferences(css: string): string[];
/** Runtime files a package lacks, and files it must not hold. */
export function checkPackageFiles(
  packaged: string[],
  required: string[],
): { missing: string[]; forbidden: string[] };
/** Installs a `.vsix` with code-server's `--install-extension`; resolves with what it printed. */
export function installVsix(
  vsixPath: string,
  dirs: { extensionsDir: string; userDataDir: string },
): Promise<string>;
