// The `prepare` build. npm runs it for a git or folder install too, but installs a folder
// dependency's devDependencies never: there the build tools are missing, and instead of a bare
// `tsc: not found` (exit 127) the user reads what to do.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const missing = ['typescript', 'esbuild'].filter((name) => {
  try {
    require.resolve(`${name}/package.json`);
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  process.stderr.write(
    `cursorhooks: cannot build: the build tools (${missing.join(', ')}) are not installed in ` +
      'this checkout. npm does not install the devDependencies of a folder dependency: run ' +
      '`npm ci` in the checkout first, or install from a git URL or a packed tarball.\n',
  );
  process.exit(1);
}
// npm sets npm_execpath for every script it runs; the build itself stays in package.json.
const npmCli = process.env.npm_execpath;
const result =
  npmCli === undefined
    ? spawnSync('npm', ['run', 'build'], { stdio: 'inherit' })
    : spawnSync(process.execPath, [npmCli, 'run', 'build'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
