// cursorhooks/observer loads on every stop, so it must stay light: answering one stop through
// the built entry evaluates only its bundle and the error table; never inversify,
// reflect-metadata, the planner or the host kit. Read from V8's coverage of the real process
// (every script it ran), so a dynamic import counts too; and what went into the bundle, from
// esbuild's own list of its inputs, built with the options the package's build uses.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { observerBuild } from '../../scripts/build-observer.mjs';
import { ROOT, requireBuiltObserver } from './built.js';
import { stopPayload, VERSION } from './payloads.js';

const SCRIPT = fileURLToPath(new URL('fixtures/behaviours.mjs', import.meta.url));

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

  it('answers a stop, with contract and heartbeat, evaluating only the bundle and the error table (red: it loads the planner, the host kit or a package)', () => {
    const heartbeat = join(mkdtempSync(join(tmpdir(), 'cursorhooks-light-')), 'heartbeat.json');
    const loaded = evaluated([SCRIPT, 'neutral'], JSON.stringify(stopPayload()), {
      CONTRACT: VERSION,
      HEARTBEAT: heartbeat,
    });
    rmSync(join(heartbeat, '..'), { recursive: true, force: true });
    expect(loaded).toEqual([
      'dist/observer.js',
      'dist/src/errors/errors.js',
      'dist/src/errors/reasons.js',
      'test/observer/fixtures/behaviours.mjs',
    ]);
  });

  it('is what the package exports as ./observer, with its types (red: the subpath is missing or points elsewhere)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.exports['./observer']).toEqual({
      types: './dist/src/observer/index.d.ts',
      import: './dist/observer.js',
      default: './dist/observer.js',
    });
  });
});

// From the sources, with the build's own options: no build needed.
describe('the cursorhooks/observer bundle', () => {
  it('bundles only the observer and checkStopEvent, and imports the error table rather than copying it (red: the bundle inlines inversify, the planner or the host kit, or a second CursorHooksError class)', async () => {
    const result = await build({ ...observerBuild, write: false, metafile: true });
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
