// The `prepare` build. npm runs it for a git or folder install too, but never installs a folder
// dependency's devDependencies: there the build tools are missing, and instead of a bare
// `tsc: not found` (exit 127) the user reads what to do. A git install runs it twice (after its
// own `npm install`, then before packing): a stamp of the inputs and of dist skips the second.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.prepare-stamp');
const require = createRequire(import.meta.url);

const tools = ['typescript', 'esbuild'].map((name) => {
  try {
    return `${name}@${require(`${name}/package.json`).version}`;
  } catch {
    return undefined;
  }
});
if (tools.includes(undefined)) {
  process.stderr.write(
    'cursorhooks: cannot build: the build tools (typescript, esbuild) are not installed in ' +
      'this checkout. npm does not install the devDependencies of a folder dependency: run ' +
      '`npm ci` in the checkout first, or install from a git URL or a packed tarball.\n',
  );
  process.exit(1);
}

/** One digest of the files under `paths`, names and contents, in a fixed order. */
function digest(paths) {
  // The Node version too: the CLI's code cache is only good for the Node that made it.
  const hash = createHash('sha256').update([...tools, process.version].join('\n'));
  const visit = (path) => {
    if (!existsSync(path) || path === STAMP) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
      return;
    }
    hash.update(`\0${path.slice(ROOT.length)}\0`).update(readFileSync(path));
  };
  for (const path of paths) visit(join(ROOT, path));
  return hash.digest('hex');
}

const INPUTS = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build-cli.mjs',
  'scripts/build-observer.mjs',
  'scripts/code-cache.mjs',
  'scripts/code-cache-run.cjs',
  'src',
  'contracts',
];
const inputs = digest(INPUTS);
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === `${inputs} ${digest(['dist'])}\n`) {
  process.exit(0);
}
// npm sets npm_execpath for every script it runs; the build itself stays in package.json.
const npmCli = process.env.npm_execpath;
const result =
  npmCli === undefined
    ? spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' })
    : spawnSync(process.execPath, [npmCli, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${inputs} ${digest(['dist'])}\n`);
