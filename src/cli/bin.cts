#!/usr/bin/env node
// The executable. It compiles the CLI bundle (`cli-main.cjs` beside it) with the V8 code cache
// the build made from real calls (`cli-main.cache`), so a call skips compiling most of the
// bundle: about a tenth of a bare node's start-up. Node 20 cannot cache a CommonJS module's code
// itself. Without a cache, or with one V8 refuses (another Node version built it), a call only
// pays the compile the cache would have saved; V8 checks the cache against its own version, its
// flags and the source before it uses any of it.
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');

const BUNDLE = path.join(__dirname, 'cli-main.cjs');
const CODE_CACHE = path.join(__dirname, 'cli-main.cache');

interface CompiledCli {
  readonly script: vm.Script;
  /** Runs the CLI on `process.argv`, as a CommonJS module in this directory. */
  readonly run: () => void;
}

/** The bundle compiled with the code cache where V8 takes it. */
function compileCli(): CompiledCli {
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(CODE_CACHE);
  } catch {
    // No cache (or none readable): cachedData stays undefined and the bundle compiles without.
  }
  // The build makes the bundle pure ASCII, so latin1 reads it exactly, at a fraction of what
  // decoding UTF-8 costs. Node's own CommonJS wrapper: the bundle sees what a require gives it.
  const source = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(BUNDLE, 'latin1')}\n})`;
  const script = new vm.Script(source, {
    filename: BUNDLE,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  return {
    script,
    run: () => script.runInThisContext()(module.exports, require, module, BUNDLE, __dirname),
  };
}

if (require.main === module) compileCli().run();

// For the build, which makes the code cache through the same compile (scripts/code-cache-run.cjs).
export = { BUNDLE, CODE_CACHE, compileCli };
