// `npm run build:observer`: cursorhooks/observer as one ES module, dist/observer.js. Every stop
// loads it, and each module file an ES import loads costs resolving, reading and linking: one
// file instead of ten took about a third of a bare node's time off a stop (measured). The error
// table stays the package's own module (dist/src/errors/errors.js), so a CursorHooksError from
// the observer is the class every other entry point exports.
import { build } from 'esbuild';

const ROOT = new URL('..', import.meta.url);
const ERRORS = /(^|\/)errors\/errors\.js$/;

/** The options of the observer's bundle; the light-entry test builds with them to list inputs. */
export const observerBuild = {
  absWorkingDir: ROOT.pathname,
  entryPoints: ['src/observer/index.ts'],
  outfile: 'dist/observer.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [
    {
      name: 'shared-errors',
      setup(plugin) {
        plugin.onResolve({ filter: ERRORS }, () => ({
          path: './src/errors/errors.js',
          external: true,
        }));
      },
    },
  ],
};

if (import.meta.url === `file://${process.argv[1]}`) await build(observerBuild);
