// `npm run build:cli`: the CLI as a bundle, its bin and code caches in dist/.
// - cli-main.cjs: the whole CLI, one CommonJS bundle. CommonJS, because an ES module entry costs
//   every call the ES loader's start, a facade per built-in and the linking of each module (about
//   0.2x a bare node for --version, measured); one file, because esbuild wraps the modules behind
//   the command table's import() in functions that run only when that command does, so a call
//   evaluates its own command's code and no other.
// - cli.cjs: the package bin (src/cli/bin.cts), which compiles cli-main.cjs with a code cache.
// - cli-main.cache and cli-main.<command>.cache: V8 code caches, made here by running the
//   commands whose start-up counts (scripts/code-cache.mjs).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { writeCodeCache } from './code-cache.mjs';
import { swapIn } from './swap-in.mjs';

const ROOT = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
const common = {
  absWorkingDir: ROOT.pathname,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
};

// The planner's SHA-256 is node:crypto's; the bundle takes the plain TypeScript one with the same
// interface instead, so that no call that only reads pays for loading node:crypto: from the
// planner's digests (./sha256.js) and from the contract-file digests of the kit and the CLI.
const portableSha256 = swapIn(
  'portable-sha256',
  /^(\.|(\.\.\/)+json)\/sha256\.js$/,
  'src/json/sha256-portable.ts',
);
// node:os through a facade that loads it on first use: few calls need it (os-on-demand.ts).
const osOnDemand = swapIn('os-on-demand', /^node:os$/, 'src/cli/os-on-demand.ts');
// The global `performance` as the process's monotonic clock: the real one loads perf_hooks.
const MONOTONIC_CLOCK = 'src/cli/monotonic-clock.ts';

await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  plugins: [portableSha256, osOnDemand],
  inject: [MONOTONIC_CLOCK],
  outfile: 'dist/cli-main.cjs',
  // The bin compiles the bundle with node:vm, where a real import() would need an experimental
  // flag: esbuild turns each into a require() of the same module.
  supported: { 'dynamic-import': false },
  // The sources are ES modules: give them what import.meta would hold, the URL made only where it
  // is read (making it costs every call a module load and a few tenths of a millisecond).
  banner: {
    js: "var __cursorhooksMeta = { get url() { return require('node:url').pathToFileURL(__filename).href; } };",
  },
  define: {
    'import.meta.url': '__cursorhooksMeta.url',
    'import.meta.dirname': '__dirname',
    // The version, fixed at build time: resolving the package's own manifest costs every call.
    CURSORHOOKS_VERSION: JSON.stringify(version),
  },
});
await build({ ...common, entryPoints: ['src/cli/bin.cts'], outfile: 'dist/cli.cjs' });

// V8 keeps a one-byte string for pure ASCII source, which reads and scans faster.
const bundle = readFileSync(new URL('dist/cli-main.cjs', ROOT));
const foreign = bundle.findIndex((byte) => byte > 0x7f);
if (foreign >= 0) {
  const line = bundle.subarray(0, foreign).toString('latin1').split('\n').length;
  throw new Error(
    `dist/cli-main.cjs line ${line} is not ASCII: write the source text with escapes`,
  );
}

// The injected clock has now() alone: a source reading more of `performance` would get undefined.
const beyondNow = /\bperformance\d*\.(?!now\()\w+/.exec(bundle.toString('latin1'));
if (beyondNow !== null) {
  throw new Error(`dist/cli-main.cjs reads ${beyondNow[0]}: ${MONOTONIC_CLOCK} gives only now()`);
}

writeCodeCache();
