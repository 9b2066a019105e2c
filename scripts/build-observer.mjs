// `npm run build:observer`: cursorhooks/observer as two bundles of the same sources, an ES module
// (dist/observer.js) and CommonJS (dist/observer.cjs), with the CommonJS types beside it
// (dist/observer.d.cts). Every stop loads one, and each module file a stop loads costs
// resolving, reading and compiling: one file instead of ten took about a third of a bare node's
// time off a stop (measured). CommonJS, because an ES module observer pays for the ES loader's
// start on every stop (measured: the floor of a script reading stdin is about 1.45x a bare node
// as an ES module, 1.25x as CommonJS). The error table stays the package's own module
// (dist/src/errors/errors.js), loaded only when there is something to report, so a
// CursorHooksError from either bundle is the class every other entry point exports.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { swapIn } from './swap-in.mjs';

const ROOT = new URL('..', import.meta.url);
const ERRORS = /(^|\/)errors\/errors\.js$/;

const sharedErrors = {
  name: 'shared-errors',
  setup(plugin) {
    plugin.onResolve({ filter: ERRORS }, () => ({
      path: './src/errors/errors.js',
      external: true,
    }));
  },
};

// The CommonJS bundle takes node:fs by plain require (src/observer/node-fs-commonjs.ts).
const commonJsFs = swapIn('commonjs-fs', /^\.\/node-fs\.js$/, 'src/observer/node-fs-commonjs.ts');

const common = {
  absWorkingDir: ROOT.pathname,
  entryPoints: ['src/observer/index.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Fewer bytes to read and compile on every stop (about 0.15 ms); names are kept for stacks.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

/** The options of the ES bundle; the light-entry test builds with them to list inputs. */
export const observerBuild = {
  ...common,
  outfile: 'dist/observer.js',
  format: 'esm',
  plugins: [sharedErrors],
};

/** The options of the CommonJS bundle, likewise. */
export const observerCommonJsBuild = {
  ...common,
  outfile: 'dist/observer.cjs',
  format: 'cjs',
  plugins: [sharedErrors, commonJsFs],
};

/** The CommonJS types (written by hand over the ES ones), as dist/observer.d.cts. */
export function commonJsTypes() {
  const source = readFileSync(new URL('src/observer/require.d.cts', ROOT), 'utf8');
  const from = "from './index.js'";
  if (!source.includes(from)) throw new Error(`src/observer/require.d.cts lost ${from}`);
  return source.replace(from, "from './src/observer/index.js'");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await Promise.all([build(observerBuild), build(observerCommonJsBuild)]);
  writeFileSync(new URL('dist/observer.d.cts', ROOT), commonJsTypes());
}
