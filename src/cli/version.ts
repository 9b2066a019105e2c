import { createRequire } from 'node:module';

/**
 * The package's own version, read through its `./package.json` export (a self-reference), so
 * the same line works from the sources, from dist and from an installed package.
 */
export function packageVersion(): string {
  const manifest: unknown = createRequire(import.meta.url)('cursorhooks/package.json');
  return (manifest as { version: string }).version;
}
