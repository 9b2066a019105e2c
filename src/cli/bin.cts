#!/usr/bin/env node
// The executable. It compiles the CLI bundle (`cli-main.cjs` beside it) with the V8 code cache
// the build made from real calls, so a call skips compiling most of the bundle: about a tenth of a
// bare node's start-up. The commands timed most have a cache of their own
// (`cli-main.<command>.cache`), since V8 reads a whole cache on every call; the rest share
// `cli-main.cache`. Node 20 cannot cache a CommonJS module's code
// itself. Without a cache, or with one V8 refuses (another Node version built it), a call only
// pays the compile the cache would have saved; V8 checks the cache against its own version, its
// flags and the source before it uses any of it.
import fs = require('node:fs');
import path = require('node:path');
import vm = require('node:vm');

const BUNDLE = path.join(__dirname, 'cli-main.cjs');
const CODE_CACHE = path.join(__dirname, 'cli-main.cache');
/** The commands the build makes a cache of their own for (scripts/code-cache.mjs). */
const OWN_CACHE: readonly string[] = ['--version', 'plan', 'status', 'install'];

/** The code cache a call of `command` starts from. */
function cacheFor(command: string | undefined): string {
  return command !== undefined && OWN_CACHE.includes(command)
    ? path.join(__dirname, `cli-main.${command.replace(/^--/, '')}.cache`)
    : CODE_CACHE;
}

interface CompiledCli {
  readonly script: vm.Script;
  /** Runs the CLI on `process.argv`, as a CommonJS module in this directory. */
  readonly run: () => void;
}

/** The bundle compiled with the code cache in `cache`, where V8 takes it. */
function compileCli(cache: string): CompiledCli {
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cache);
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

if (require.main === module) compileCli(cacheFor(process.argv[2])).run();

// For the build, which makes the code cache through the same compile (scripts/code-cache-run.cjs).
export = { BUNDLE, CODE_CACHE, cacheFor, compileCli };
