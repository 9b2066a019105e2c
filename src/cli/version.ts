/** Set by the bundle's build (scripts/build-cli.mjs); undeclared when run from the sources. */
declare const CURSORHOOKS_VERSION: string | undefined;

/**
 * The package's own version: inlined in the bundle, else read through its `./package.json`
 * export (a self-reference), which works from the sources and from dist/src alike.
 */
export async function packageVersion(): Promise<string> {
  if (typeof CURSORHOOKS_VERSION === 'string') return CURSORHOOKS_VERSION;
  const { createRequire } = await import('node:module');
  const manifest: unknown = createRequire(import.meta.url)('cursorhooks/package.json');
  return (manifest as { version: string }).version;
}
