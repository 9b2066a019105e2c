// cursorhooks/observer loads on every stop, so it must stay light: answering one stop through
// either built bundle (ES module or CommonJS) evaluates only that bundle, and the error table
// only when there is something to report; never inversify, reflect-metadata, the planner or the
// host kit. Read from V8's coverage of the real process (every script it ran), so a dynamic
// import counts too; and what went into each bundle, from esbuild's own list of its inputs,
// built with the options the package's build uses.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { observerBuild, observerCommonJsBuild } from '../../scripts/build-observer.mjs';
import { BUILT_OBSERVER, BUILT_OBSERVER_CJS, ROOT, requireBuiltObserver } from './built.js';
import { stopPayload, VERSION } from './payloads.js';

const SCRIPT = fileURLToPath(new URL('fixtures/behaviours.mjs', import.meta.url));
const SCRIPT_CJS = fileURLToPath(new URL('fixtures/behaviours.cjs', import.meta.url));
const ERROR_TABLE = ['dist/src/errors/errors.js', 'dist/src/errors/reasons.js'];

/** The files one process evaluated (repository files relative), from its V8 coverage. */
function evaluated(args: readonly string[], stdin: string, env: Record<string, string>): string[] {
  const directory = mkdtempSync(join(tmpdir(), 'cursorhooks-observer-loads-'));
  try {
    const child = spawnSync(process.execPath, args, {
      input: stdin,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ...env, NODE_V8_COVERAGE: directory },
    });
    expect(child.stdout).toBe('{}\n');
    expect(child.status).toBe(0);
    const urls = readdirSync(directory).flatMap(
      (name) =>
        (JSON.parse(readFileSync(join(directory, name), 'utf8')) as { result: { url: string }[] })
          .result,
    );
    // Every file it ran; a package (inversify) resolves through node_modules' link, out of ROOT.
    const root = new URL(`file://${ROOT}`).href;
    return [...new Set(urls.map((script) => script.url))]
      .filter((url) => url.startsWith('file:'))
      .map((url) => (url.startsWith(root) ? url.slice(root.length) : url))
      .sort();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

describe('the cursorhooks/observer entry', () => {
  beforeAll(requireBuiltObserver);

  describe.each([
    ['ES module', SCRIPT, 'dist/observer.js', 'behaviours.mjs'],
    ['CommonJS', SCRIPT_CJS, 'dist/observer.cjs', 'behaviours.cjs'],
  ])('as %s', (_, script, bundle, name) => {
    const fixture = [`test/observer/fixtures/${name}`, 'test/observer/fixtures/handlers.cjs'];
    it('answers a stop, with contract and heartbeat, evaluating only its bundle (red: it loads the planner, the host kit, a package, or the error table with nothing to report)', () => {
      const heartbeat = join(mkdtempSync(join(tmpdir(), 'cursorhooks-light-')), 'heartbeat.json');
      const loaded = evaluated([script, 'neutral'], JSON.stringify(stopPayload()), {
        CONTRACT: VERSION,
        HEARTBEAT: heartbeat,
      });
      rmSync(join(heartbeat, '..'), { recursive: true, force: true });
      expect(loaded).toEqual([bundle, ...fixture].sort());
    });

    it("loads the error table when it reports the handler's failure (red: the warning is lost, or the bundle carries a copy of the table)", () => {
      const loaded = evaluated([script, 'throw'], JSON.stringify(stopPayload()), {});
      expect(loaded).toEqual([bundle, ...ERROR_TABLE, ...fixture].sort());
    });
  });

  it('is what the package exports as ./observer, each module format with its types (red: the subpath, a condition or its types is missing or points elsewhere)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.exports['./observer']).toEqual({
      import: { types: './dist/src/observer/index.d.ts', default: './dist/observer.js' },
      require: { types: './dist/observer.d.cts', default: './dist/observer.cjs' },
    });
  });

  // In a plain Node process: Vitest's own module graph would give the ES side a second class.
  it('rejects bad options from either bundle with the CursorHooksError every entry point exports (red: a bundle throws its own copy of the class, which instanceof tells apart)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const { CursorHooksError } = await import(${JSON.stringify(join(ROOT, 'dist/src/errors/errors.js'))});
      const esm = await import(${JSON.stringify(BUILT_OBSERVER)});
      const cjs = createRequire(import.meta.url)(${JSON.stringify(BUILT_OBSERVER_CJS)});
      const verdicts = [];
      for (const observer of [esm, cjs]) {
        const err = await observer.readStopEvent('{}', { maxBytes: -1 }).catch((e) => e);
        verdicts.push([err instanceof CursorHooksError, err.reason]);
      }
      console.log(JSON.stringify(verdicts));`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual([
      [true, 'observer-option-invalid'],
      [true, 'observer-option-invalid'],
    ]);
  });

  it('exports the same values from both bundles (red: the CommonJS bundle lacks or adds an export)', async () => {
    const esm = await import(BUILT_OBSERVER);
    const cjs = createRequire(import.meta.url)(BUILT_OBSERVER_CJS);
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
  });
});

// From the sources, with the build's own options: no build needed.
describe.each([
  ['ES module', observerBuild],
  ['CommonJS', observerCommonJsBuild],
])('the cursorhooks/observer %s bundle', (_, options) => {
  it('bundles only the observer and checkStopEvent, and imports the error table rather than copying it (red: the bundle inlines inversify, the planner or the host kit, or a second CursorHooksError class)', async () => {
    const result = await build({ ...options, write: false, metafile: true });
    const bundled = Object.keys(result.metafile?.inputs ?? {}).sort();
    const foreign = bundled.filter(
      // The stop check and the heartbeat's format are shared with the host kit, which reads it.
      (path) =>
        !path.startsWith('src/observer/') &&
        path !== 'src/shell/stop-event.ts' &&
        path !== 'src/shell/heartbeat-record.ts',
    );
    expect(foreign).toEqual([]);
    expect(bundled).toContain('src/observer/heartbeat-write.ts');
    const imports = Object.values(result.metafile?.outputs ?? {}).flatMap((output) =>
      output.imports.map((entry) => entry.path),
    );
    expect(new Set(imports.filter((path) => !path.startsWith('node:')))).toEqual(
      new Set(['./src/errors/errors.js']),
    );
  });
});

// The CommonJS bundle takes node:fs by require; the ES one through createRequire (red: a bundle
// takes the other's, so CommonJS loads node:module and the ES loader, or ES has no require).
it.each([
  [observerBuild, 'src/observer/node-fs.ts'],
  [observerCommonJsBuild, 'src/observer/node-fs-commonjs.ts'],
])('bundles its own node:fs (%#)', async (options, file) => {
  const result = await build({ ...options, write: false, metafile: true });
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  expect(inputs.filter((path) => path.includes('node-fs'))).toEqual([file]);
});
