// Builds the extension's bundles:
//  - host:    src/extension.ts  -> dist/extension.js  (CommonJS, Node, `vscode` external): activation only,
//             a few registrations;
//             src/chatHost.ts   -> dist/chat.js       the chat (schemas, controller, journal),
//             `require`d by dist/extension.js on first use (src/lazyChatHost.ts);
//             the features the chat rarely needs, each `require`d by dist/chat.js on its first use
//             (src/vscode/lazyBundles.ts): see `lazyFeatures` below
//  - webview: webview/main.ts   -> dist/webview.js    (ESM, browser)
//             webview/markdown/markdownWorker.ts -> dist/markdownWorker.js (a classic worker script):
//             streamed markdown planned off the page's main thread
//  - demo agent: test/fixtures/agent/main.ts -> dist/demo-agent.js (CommonJS, Node): the scriptable
//    test agent, shipped as the offline "Demo agent" and spawned by the tests over real stdio.
// Flags: --production (minify, no source maps), --watch (rebuild on change).
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints each bundle's size after every build, and errors in a problem-matcher friendly form. */
const reportPlugin = {
  name: 'report',
  setup(build) {
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) {
          console.error(`    ${location.file}:${location.line}:${location.column}:`);
        }
      }
      if (result.errors.length === 0) {
        const outfile = build.initialOptions.outfile;
        const kib = (statSync(outfile).size / 1024).toFixed(1);
        console.log(`${outfile}  ${kib} KiB`);
      }
    });
  },
};

/**
 * zod re-exports every locale (~250 KB) from its namespace; our messages are English, so the
 * locale index is replaced by English alone (the webview bundle shrinks by a third).
 */
const englishOnlyZod = {
  name: 'english-only-zod',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: 'zod-locales-en', namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

/**
 * markdown-it's libraries, done smaller in the webview: it decodes named entities with the `entities`
 * package and its 20 KiB table, converts link hosts with `punycode.js` and tests for Unicode
 * punctuation with `uc.micro`'s tables, where the browser does each (webview/markdown/entities.ts,
 * punycode.ts, ucmicro.ts); and it finds autolinks with linkify-it, where the chat's own
 * webview/markdown/linkify.ts links what the chat opens.
 */
const markdownLibraries = {
  entities: 'webview/markdown/entities.ts',
  'punycode.js': 'webview/markdown/punycode.ts',
  'uc.micro': 'webview/markdown/ucmicro.ts',
  'linkify-it': 'webview/markdown/linkify.ts',
};
/** The plugin that points markdown-it's imports of `libraries` (names of markdownLibraries) at ours. */
function browserMarkdown(libraries) {
  const filter = new RegExp(`^(${libraries.map((name) => name.replace('.', '\\.')).join('|')})$`);
  return {
    name: 'browser-markdown',
    setup(build) {
      build.onResolve({ filter }, (args) =>
        /[\\/]markdown-it[\\/]/.test(args.importer)
          ? { path: resolve(markdownLibraries[args.path]) }
          : undefined,
      );
    },
  };
}

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [englishOnlyZod, reportPlugin],
};

const nodeBundle = { ...common, format: 'cjs', platform: 'node', target: 'node20' };

/**
 * Bundles of their own, `require`d by dist/chat.js on first use: dist/<name>.js from its entry. The one list
 * (src/lazyBundles.json) is read here, by the chat's host (which loads them) and by the bench and the
 * packaging check.
 */
const lazyBundles = JSON.parse(readFileSync('src/lazyBundles.json', 'utf8'));

const builds = [
  { ...nodeBundle, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...nodeBundle, entryPoints: ['src/chatHost.ts'], outfile: 'dist/chat.js', external: ['vscode'] },
  ...Object.entries(lazyBundles).map(([name, { entry }]) => ({
    ...nodeBundle,
    entryPoints: [entry],
    outfile: `dist/${name}.js`,
    external: ['vscode'],
  })),
  { ...nodeBundle, entryPoints: ['test/fixtures/agent/main.ts'], outfile: 'dist/demo-agent.js' },
  {
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    plugins: [browserMarkdown(Object.keys(markdownLibraries)), ...common.plugins],
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
  },
  {
    ...common,
    entryPoints: ['webview/markdown/markdownWorker.ts'],
    outfile: 'dist/markdownWorker.js',
    // A worker has no document to decode entities with: markdown-it's own `entities` there (its
    // 20 KiB table loads once, with the worker, and decodes exactly as the page's decoder).
    plugins: [browserMarkdown(['punycode.js', 'uc.micro', 'linkify-it']), ...common.plugins],
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  },
];

// Codicons for the webview, served from dist/ under the webview's CSP (style-src/font-src).
mkdirSync('dist', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) {
  copyFileSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/${file}`);
}

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  console.log('watching for changes…');
} else {
  const results = await Promise.allSettled(builds.map((options) => esbuild.build(options)));
  if (results.some((r) => r.status === 'rejected')) {
    process.exitCode = 1;
  }
}
