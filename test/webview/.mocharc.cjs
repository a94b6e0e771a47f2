// The webview suite in headless Chromium (`npx mocha --config test/webview/.mocharc.cjs [file]`).
module.exports = require('../support/mochaSuite.cjs').suiteConfig('test/webview/**/*.test.ts', {
  timeout: 30000,
});
