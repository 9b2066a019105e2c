// One call of the built CLI (the arguments after this file's name) compiled through the bin's
// own compileCli; on exit, V8's code cache of everything it compiled, the cache it started from
// included, replaces dist/cli-main.cache.
const { writeFileSync } = require('node:fs');
const { compileCli, CODE_CACHE } = require('../dist/cli.cjs');

const cli = compileCli();
process.on('exit', () => writeFileSync(CODE_CACHE, cli.script.createCachedData()));
cli.run();
