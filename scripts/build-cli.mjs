// `npm run build:cli`: the CLI as one CommonJS file, dist/cli.cjs (the package bin). CommonJS
// because an ES module entry costs a call the ES loader's start and every module's linking
// (about 0.15x a bare node here); one file, because each command's modules are wrapped by
// esbuild behind the command table's import() and evaluated only when that command runs.
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
