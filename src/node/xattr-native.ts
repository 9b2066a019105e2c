// The optional native module that lets Node see extended attributes (and, on Linux, POSIX ACLs
// as `system.posix_acl_access`). Loaded on the first write that needs it, never at start-up;
// absent (not installed, or no prebuilt binary for the platform), the kit cannot see them.
import { createRequire as requireFrom } from 'node:module';
import { constants } from 'node:os';

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
 * Whether the module and a prebuilt binary for this platform are installed, without loading
 * either (loading costs a CLI call tens of milliseconds): the binary packages are the module's
 * own optional dependencies named for a platform and architecture.
 */
export function xattrsInstalled(): boolean {
  const require = requireFrom(import.meta.url);
  try {
    const manifest = require(`${MODULE}/package.json`) as { optionalDependencies?: object };
    const prefix = `${MODULE}-${process.platform}-${process.arch}`;
    return Object.keys(manifest.optionalDependencies ?? {})
      .filter((name) => name === prefix || name.startsWith(`${prefix}-`))
      .some((name) => {
        try {
          require.resolve(`${name}/package.json`);
          return true;
        } catch {
          return false;
        }
      });
  } catch {
    return false;
  }
}

export function loadXattrs(): Promise<XattrModule | undefined> {
  loading ??= import(MODULE).then(
    (loaded: { default?: XattrModule } & XattrModule) => loaded.default ?? loaded,
    () => undefined,
  );
  return loading;
}

const CODE_BY_NUMBER = new Map(
  Object.entries(constants.errno).map(([name, value]) => [value, name]),
);

/** The module reports "… (os error 2)"; the kit's errors want Node's `code` (ENOENT). */
export function asSystemError(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const number = /\(os error (\d+)\)/.exec(message)?.[1];
  const code = number === undefined ? undefined : CODE_BY_NUMBER.get(Number(number));
  return Object.assign(new Error(message), { code: code ?? 'EIO' });
}
