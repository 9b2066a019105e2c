// Installs of the optional @napi-rs/xattr module laid out in a temporary folder, for loading it
// as `require` from a file there would: broken (a garbage binary where the loader looks), absent,
// or pnpm's layout (links into .pnpm). The real node_modules is only read, never changed.
import { copyFileSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const MODULE_DIR = dirname(require.resolve('@napi-rs/xattr/package.json'));
/** The binary package the loader takes on this machine (the tests run on linux-x64-gnu). */
export const BINARY = `@napi-rs/xattr-${process.platform}-${process.arch}-gnu`;
const binaryDir = () =>
  realpathSync(
    dirname(createRequire(join(MODULE_DIR, 'index.js')).resolve(`${BINARY}/package.json`)),
  );
export const binaryHere = process.platform === 'linux' && process.arch === 'x64';

/** The loader script and manifest of the module, copied into `folder`. */
function copyModule(folder: string): void {
  mkdirSync(folder, { recursive: true });
  for (const name of ['index.js', 'package.json']) {
    copyFileSync(join(MODULE_DIR, name), join(folder, name));
  }
}

/** The file in `root` a require is made from. */
const from = (root: string) => join(root, 'app.js');

/** The module with its binary package replaced by garbage bytes: returns where to require from. */
export function brokenInstall(root: string): string {
  const modules = join(root, 'node_modules', '@napi-rs');
  copyModule(join(modules, 'xattr'));
  const binary = join(root, 'node_modules', BINARY);
  mkdirSync(binary, { recursive: true });
  copyFileSync(join(binaryDir(), 'package.json'), join(binary, 'package.json'));
  const main = (require(join(binaryDir(), 'package.json')) as { main: string }).main;
  writeFileSync(join(binary, main), 'not an ELF shared object\n');
  return from(root);
}

/** No module at all (`npm install --omit=optional`, or a platform without a build). */
export function absentInstall(root: string): string {
  return from(root);
}

/**
 * pnpm's layout: node_modules/@napi-rs/xattr is a link into .pnpm, where the binary package is
 * the module's sibling, and nowhere beside the link.
 */
export function pnpmInstall(root: string): string {
  const store = join(root, 'node_modules', '.pnpm', '@napi-rs+xattr@1.0.3', 'node_modules');
  copyModule(join(store, '@napi-rs', 'xattr'));
  mkdirSync(join(store, '@napi-rs'), { recursive: true });
  symlinkSync(binaryDir(), join(store, BINARY));
  mkdirSync(join(root, 'node_modules', '@napi-rs'), { recursive: true });
  symlinkSync(join(store, '@napi-rs', 'xattr'), join(root, 'node_modules', '@napi-rs', 'xattr'));
  return from(root);
}
