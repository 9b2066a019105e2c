// The executable (src/cli/bin.cts), in-process: its source is compiled to CommonJS as the build
// compiles it and evaluated here with a module object, a require and a directory of our own, so
// the bundle it compiles is a small file this test writes, never dist/. Under Stryker the source
// read here is the instrumented one, so every mutant of the bin is switched in by this test.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Script } from 'node:vm';
import { transformSync } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SOURCE = new URL('../../src/cli/bin.cts', import.meta.url);
const nodeRequire = createRequire(import.meta.url);

interface Bin {
  readonly BUNDLE: string;
  readonly CODE_CACHE: string;
  readonly cacheFor: (command: string | undefined) => string;
  readonly compileCli: (cache: string) => { readonly script: Script; readonly run: () => void };
}

/** What the test bundle saw when it ran, recorded on the bin's module object. */
interface Seen {
  readonly exportsIsModuleExports: boolean;
  readonly requireTag: string;
  readonly path: string;
  readonly filename: string;
  readonly dirname: string;
  readonly text?: string;
  readonly stack?: string;
}

type BinModule = { exports: unknown; seen?: Seen };

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cursorhooks-bin-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Evaluates the bin as the file `dir/cli.cjs`, as the main module or as a required one. */
function loadBin(asMain: boolean): { bin: Bin; module: BinModule } {
  // The shebang is for the file; a function body cannot hold it.
  const source = readFileSync(SOURCE, 'utf8').replace(/^#!.*/, '');
  const { code } = transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
  });
  const module: BinModule = { exports: {} };
  const require = Object.assign((id: string) => nodeRequire(id), {
    main: asMain ? module : undefined,
    tag: 'the bin`s require',
  });
  new Function('exports', 'require', 'module', '__filename', '__dirname', code)(
    module.exports,
    require,
    module,
    join(dir, 'cli.cjs'),
    dir,
  );
  return { bin: module.exports as Bin, module };
}

/** A bundle that records its CommonJS arguments on the module it is given. */
function writeBundle(extra = ''): void {
  writeFileSync(
    join(dir, 'cli-main.cjs'),
    `module.seen = { exportsIsModuleExports: exports === module.exports, requireTag: require.tag, path: typeof require('node:path').join, filename: __filename, dirname: __dirname${extra} };`,
  );
}

describe('the executable', () => {
  it('names the bundle and the code cache beside itself (red: the bin compiles another file or reads another cache)', () => {
    writeBundle();
    const { bin, module } = loadBin(false);
    expect(bin.BUNDLE).toBe(join(dir, 'cli-main.cjs'));
    expect(bin.CODE_CACHE).toBe(join(dir, 'cli-main.cache'));
    // Required (by the build's code-cache run), it does not run the CLI.
    expect(module.seen).toBeUndefined();
  });

  it("gives the commands timed most a code cache of their own and every other call the shared one (red: a call deserialises every command's compiled code, or a command reads a cache the build never made)", () => {
    const { bin } = loadBin(false);
    expect(bin.cacheFor('install')).toBe(join(dir, 'cli-main.install.cache'));
    expect(bin.cacheFor('status')).toBe(join(dir, 'cli-main.status.cache'));
    expect(bin.cacheFor('plan')).toBe(join(dir, 'cli-main.plan.cache'));
    expect(bin.cacheFor('--version')).toBe(join(dir, 'cli-main.version.cache'));
    for (const other of ['remove', 'qualify', '--help', 'version', undefined]) {
      expect(bin.cacheFor(other)).toBe(bin.CODE_CACHE);
    }
  });

  it('as the main module, runs the bundle as a CommonJS module in its directory (red: the CLI does not run, or sees the wrong module, require, file or directory)', () => {
    writeBundle();
    const { module } = loadBin(true);
    expect(module.seen).toEqual({
      exportsIsModuleExports: true,
      requireTag: 'the bin`s require',
      path: 'function',
      filename: join(dir, 'cli-main.cjs'),
      dirname: dir,
    });
  });

  it('reads the bundle as latin1, byte for character (red: a byte above 0x7f decodes as UTF-8 or U+FFFD)', () => {
    writeFileSync(
      join(dir, 'cli-main.cjs'),
      Buffer.concat([
        Buffer.from('module.seen = { text: "'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from('" };'),
      ]),
    );
    const { module } = loadBin(true);
    expect(module.seen?.text).toBe('\u00e9\u00ff');
  });

  it('compiles the bundle under its own file name (red: stack traces name no file or another one)', () => {
    writeBundle(', stack: new Error("here").stack');
    const { module } = loadBin(true);
    expect(module.seen?.stack).toContain(`${join(dir, 'cli-main.cjs')}:1:`);
  });

  it('closes the wrapper on a line of its own, so a bundle ending in a line comment still runs (red: the wrapper is commented out)', () => {
    writeFileSync(join(dir, 'cli-main.cjs'), 'module.seen = { text: "ok" }; // no newline');
    const { module } = loadBin(true);
    expect(module.seen?.text).toBe('ok');
  });

  it('compiles without a cache file, takes a cache V8 made for the same source and refuses a foreign one (red: the cache is never read, or a missing one is a crash)', () => {
    writeBundle();
    const { bin } = loadBin(false);
    const bare = bin.compileCli(bin.CODE_CACHE).script;
    // No cache given: V8 reports nothing about one.
    expect(bare.cachedDataRejected).toBeUndefined();
    writeFileSync(bin.CODE_CACHE, bare.createCachedData());
    expect(bin.compileCli(bin.CODE_CACHE).script.cachedDataRejected).toBe(false);
    // A source this isolate has not compiled yet: V8 checks the cache against it.
    writeBundle(`, fresh: ${JSON.stringify(dir)}`);
    writeFileSync(bin.CODE_CACHE, Buffer.from('not a code cache'));
    expect(bin.compileCli(bin.CODE_CACHE).script.cachedDataRejected).toBe(true);
  });
});
