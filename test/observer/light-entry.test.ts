// cursorhooks/observer loads on every stop, so it must stay light: answering one stop through
// the built entry evaluates only the observer's files, checkStopEvent's module and the error
// table; never inversify, reflect-metadata, the planner or the host kit. Read from V8's
// coverage of the real process (every script it ran), so a dynamic import counts too.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
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

  it('answers a stop, with contract and heartbeat, loading only the observer, checkStopEvent and the error table (red: it pulls in inversify, reflect-metadata, the planner or the host kit)', () => {
    const heartbeat = join(mkdtempSync(join(tmpdir(), 'cursorhooks-light-')), 'heartbeat.json');
    const loaded = evaluated([SCRIPT, 'neutral'], JSON.stringify(stopPayload()), {
      CONTRACT: VERSION,
      HEARTBEAT: heartbeat,
    });
    rmSync(join(heartbeat, '..'), { recursive: true, force: true });
    expect(loaded).toContain('dist/src/observer/index.js');
    expect(loaded).toContain('dist/src/observer/heartbeat-write.js');
    const outside = loaded.filter(
      (path) =>
        !path.startsWith('dist/src/observer/') &&
        !path.startsWith('dist/src/errors/') &&
        path !== 'dist/src/shell/stop-event.js' &&
        path !== 'test/observer/fixtures/behaviours.mjs',
    );
    expect(outside).toEqual([]);
  });

  it('is what the package exports as ./observer, with its types (red: the subpath is missing or points elsewhere)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.exports['./observer']).toEqual({
      types: './dist/src/observer/index.d.ts',
      import: './dist/src/observer/index.js',
      default: './dist/src/observer/index.js',
    });
  });
});
