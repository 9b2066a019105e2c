// The esbuild plugin both builds use to put one source file in place of another in a bundle.
const ROOT = new URL('..', import.meta.url);

/** A plugin that gives the bundle `file` wherever a source imports `specifier`, except in `file`. */
export function swapIn(name, specifier, file) {
  const path = new URL(file, ROOT).pathname;
  return {
    name,
    setup(plugin) {
      plugin.onResolve({ filter: specifier }, (args) =>
        args.importer === path ? undefined : { path },
      );
    },
  };
}
