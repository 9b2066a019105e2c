// The optional native module that lets Node see extended attributes (and, on Linux, POSIX ACLs
// as `system.posix_acl_access`). Loaded on the first write that needs it, never at start-up;
// absent (not installed, or no prebuilt binary for the platform), the kit cannot see them.
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface XattrModule {
  listAttributes(path: string): Promise<string[]>;
  getAttribute(path: string, name: string): Promise<Uint8Array | null>;
  setAttribute(path: string, name: string, value: Uint8Array): Promise<void>;
  removeAttribute(path: string, name: string): Promise<void>;
}

// A variable specifier: the CLI bundler leaves the native module to be resolved at run time.
const MODULE = '@napi-rs/xattr';
let loading: Promise<XattrModule | undefined> | undefined;

/**
 * The folder of package `name` as a require from a file in `from` finds it: the nearest
 * `node_modules/<name>` with a manifest, walking up. NODE_PATH and the global folders are not
 * searched (npm never installs a dependency there).
 */
function packageFolder(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const folder = join(dir, 'node_modules', name);
      if (existsSync(join(folder, 'package.json'))) return folder;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether the module and a prebuilt binary for this platform are installed, without loading
 * either (loading costs a CLI call tens of milliseconds, and even Node's resolver a few): the
 * binary packages are the module's own optional dependencies named for a platform and
 * architecture, found from the module's folder as its loader finds them.
 */
export function xattrsInstalled(from = moduleDirectory()): boolean {
  const folder = packageFolder(MODULE, from);
  if (folder === undefined) return false;
  let manifest: { optionalDependencies?: object };
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  } catch {
    return false;
  }
  const prefix = `${MODULE}-${process.platform}-${process.arch}`;
  return Object.keys(manifest.optionalDependencies ?? {})
    .filter((name) => name === prefix || name.startsWith(`${prefix}-`))
    .some((name) => packageFolder(name, folder) !== undefined);
}

/** This file's folder: the CLI bundle defines `import.meta.dirname` (Node >= 20.11 has it too). */
function moduleDirectory(): string {
  return import.meta.dirname ?? dirname(fileURLToPath(import.meta.url));
}

export function loadXattrs(): Promise<XattrModule | undefined> {
  loading ??= import(MODULE).then(
    (loaded: { default?: XattrModule } & XattrModule) => loaded.default ?? loaded,
    () => undefined,
  );
  return loading;
}

// Built on the first error, not at load: every call that writes loads this module.
let codeByNumber: ReadonlyMap<number, string> | undefined;

/** The module reports "… (os error 2)"; the kit's errors want Node's `code` (ENOENT). */
export function asSystemError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const number = /\(os error (\d+)\)/.exec(message)?.[1];
  codeByNumber ??= new Map(Object.entries(constants.errno).map(([name, value]) => [value, name]));
  const code = number === undefined ? undefined : codeByNumber.get(Number(number));
  return Object.assign(new Error(message), { code: code ?? 'EIO' });
}
