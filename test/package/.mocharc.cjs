// The packaged-extension suite (`npx mocha --config test/package/.mocharc.cjs [file]`).
module.exports = require('../support/mochaSuite.cjs').suiteConfig('test/package/**/*.test.ts', {
  timeout: 180000,
  slow: 30000,
});
