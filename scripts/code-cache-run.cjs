// One call of the built CLI compiled through the bin's own compileCli: `code-cache-run.cjs CACHE
// ARGS…` starts from the code cache CACHE (if any) and, on exit, replaces it with V8's cache of
// everything it compiled, the cache it started from included.
const { writeFileSync } = require('node:fs');
const { compileCli } = require('../dist/cli.cjs');

// The CLI reads its arguments from process.argv: CACHE is this script's, not the CLI's.
const [cache] = process.argv.splice(2, 1);
const cli = compileCli(cache);
process.on('exit', () => writeFileSync(cache, cli.script.createCachedData()));
cli.run();
