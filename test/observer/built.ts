// The built observer entry, as `npm run build` leaves it (dist/observer.js and dist/observer.cjs,
// the bundles the package exports): the process-level tests run what the package ships. A build
// older than its sources would test yesterday's code, so it is refused.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUILT_OBSERVER = fileURLToPath(new URL('../../dist/observer.js', import.meta.url));
export const BUILT_OBSERVER_CJS = fileURLToPath(
  new URL('../../dist/observer.cjs', import.meta.url),
);
const SOURCES = [
  ...readdirSync(new URL('../../src/observer/', import.meta.url)).map((name) =>
    fileURLToPath(new URL(`../../src/observer/${name}`, import.meta.url)),
  ),
  fileURLToPath(new URL('../../src/shell/stop-event.ts', import.meta.url)),
  fileURLToPath(new URL('../../src/shell/heartbeat-record.ts', import.meta.url)),
  fileURLToPath(new URL('../../scripts/build-observer.mjs', import.meta.url)),
];

/** Throws, saying what to run, when dist is missing or older than a source it is built from. */
export function requireBuiltObserver(): void {
  const bundles = [BUILT_OBSERVER, BUILT_OBSERVER_CJS];
  const missing = bundles.find((bundle) => !existsSync(bundle));
  if (missing !== undefined) throw new Error(`${missing} is missing: run \`npm run build\` first`);
  const built = Math.min(...bundles.map((bundle) => statSync(bundle).mtimeMs));
  const newer = SOURCES.filter((source) => statSync(source).mtimeMs > built);
  if (newer.length > 0) {
    throw new Error(`dist is older than ${newer.join(', ')}: run \`npm run build\` first`);
  }
}
