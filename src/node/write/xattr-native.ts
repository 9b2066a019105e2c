// The optional native module that lets Node see extended attributes (and, on Linux, POSIX ACLs
// as `system.posix_acl_access`). Whether it really loads here is the kit's one capability
// decision for metadata: status and every write read it from the same load, made on first need
// (never at start-up), never guessed from package folders, which a pnpm or a broken install lays
// out differently from what `require` finds.
import { createRequire } from 'node:module';
import { constants } from 'node:os';

/** The module's calls the kit uses: the promise ones for the thread pool, the sync ones to block. */
export interface XattrModule {
  listAttributes(path: string): Promise<string[]>;
  getAttribute(path: string, name: string): Promise<Uint8Array | null>;
  setAttribute(path: string, name: string, value: Uint8Array): Promise<void>;
  removeAttribute(path: string, name: string): Promise<void>;
  listAttributesSync(path: string): string[];
  getAttributeSync(path: string, name: string): Uint8Array | null;
  setAttributeSync(path: string, name: string, value: Uint8Array): void;
  removeAttributeSync(path: string, name: string): void;
}

/** Gives the loaded module, or undefined when it cannot load here. */
export type XattrLoader = () => XattrModule | undefined;

// A variable specifier: the CLI bundler leaves the native module to be resolved at run time.
const MODULE = '@napi-rs/xattr';
// The binary package's name as the loader spells it: glibc's `-gnu` on Linux.
const BINARY = `${MODULE}-${process.platform}-${process.arch}${process.platform === 'linux' ? '-gnu' : ''}`;
const CALLS: readonly (keyof XattrModule)[] = [
  'listAttributes',
  'getAttribute',
  'setAttribute',
  'removeAttribute',
  'listAttributesSync',
  'getAttributeSync',
  'setAttributeSync',
  'removeAttributeSync',
];

/**
 * The module as `require` from the file `from` loads it; undefined when it cannot (absent, no
 * binary for this platform, a broken or foreign binary) or lacks one of the kit's calls. The
 * platform's binary package is tried first, resolved from the loader's own folder as the loader
 * resolves it (so pnpm's layout works): the loader's platform detection costs every write about
 * 2 ms. Where that package is absent, unloadable or incomplete (musl, an unusual triple), the
 * loader decides.
 */
export function requireXattrs(from: string): XattrModule | undefined {
  const require = createRequire(from);
  let loader: string;
  try {
    loader = require.resolve(MODULE);
  } catch {
    return undefined;
  }
  // A binary the user names in NAPI_RS_NATIVE_LIBRARY_PATH is the loader's to load.
  const direct =
    process.env.NAPI_RS_NATIVE_LIBRARY_PATH === undefined
      ? withCalls(() => createRequire(loader)(BINARY))
      : undefined;
  return direct ?? withCalls(() => require(MODULE));
}

/** What `load` gives, if it loads and has every call the kit makes. */
function withCalls(load: () => unknown): XattrModule | undefined {
  let loaded: Record<string, unknown>;
  try {
    loaded = load() as Record<string, unknown>;
  } catch {
    return undefined;
  }
  return CALLS.every((name) => typeof loaded?.[name] === 'function')
    ? (loaded as unknown as XattrModule)
    : undefined;
}

let decided: { readonly module: XattrModule | undefined } | undefined;

/** The module as the kit's own file finds it, loaded once per process. */
export const loadXattrs: XattrLoader = () => {
  decided ??= { module: requireXattrs(import.meta.url) };
  return decided.module;
};

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
