// `npm run build:cli`: the CLI as one CommonJS file, dist/cli.cjs (the package bin). CommonJS,
// because an ES module entry costs every call the ES loader's start, a facade per built-in and
// the linking of each module (about 0.2x a bare node for --version, measured); one file,
// because esbuild wraps the modules behind the command table's import() in functions that run
// only when that command does, so a call evaluates its own command's code and no other.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const ROOT = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));

await build({
  absWorkingDir: ROOT.pathname,
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: 'dist/cli.cjs',
  // The sources are ES modules: give them the URL import.meta would hold.
  banner: { js: "var __cursorhooksURL = require('node:url').pathToFileURL(__filename).href;" },
  define: {
    'import.meta.url': '__cursorhooksURL',
    // The version, fixed at build time: resolving the package's own manifest costs every call.
    CURSORHOOKS_VERSION: JSON.stringify(version),
  },
  logLevel: 'warning',
});
