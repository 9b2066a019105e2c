// `npm run build:cli`: the CLI as dist/cli.js (the package bin) plus chunks in dist/cli/, one per
// command module and one per piece of code commands share, so a call evaluates only what its
// command imports (esbuild code splitting). Chunk names carry a content hash: the old ones are
// removed first, so the package never ships a chunk no build of these sources made.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const ROOT = new URL('..', import.meta.url);
const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));

rmSync(new URL('dist/cli', ROOT), { recursive: true, force: true });
await build({
  absWorkingDir: ROOT.pathname,
  entryPoints: { cli: 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'dist',
  chunkNames: 'cli/[name]-[hash]',
  // The version, fixed at build time: resolving the package's own manifest costs every call.
  define: { CURSORHOOKS_VERSION: JSON.stringify(version) },
  logLevel: 'warning',
});
