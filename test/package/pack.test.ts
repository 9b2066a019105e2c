// Every install path the README names, from a fresh copy of the sources, offline: the packed
// tarball, a folder after `npm ci`, a git URL (a local bare repository, whose prepare install
// gets the devDependencies from a loopback registry), and a fresh folder without them. Each is
// used as a host would: import, require, npx, the schemas and the TypeScript types. One pack,
// one dependency set, the installs run in parallel.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalRegistry, startRegistry } from './registry.js';
import {
  copySources,
  freshCopy,
  gitRepository,
  npm,
  npmAsync,
  pack,
  ROOT,
  runtimeDependencies,
  scratchProject,
} from './scratch.js';
import { typecheck } from './typecheck.js';

const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const FROM = ['tarball', 'folder', 'git'] as const;
type From = (typeof FROM)[number];

let scratch = '';
let registry: LocalRegistry | undefined;
let packedFiles: string[] = [];
const installed = new Map<From, string>();
let freshFolderFailure = '';

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cursorhooks-pack-'));
  const dependencies = runtimeDependencies();
  const tarballs = pack([...dependencies.values()], ROOT, scratch, join(scratch, 'deps'));
  const byName = new Map(
    [...dependencies.keys()].map((name, index) => [
      name,
      join(scratch, 'deps', tarballs[index] ?? ''),
    ]),
  );
  registry = await startRegistry(join(ROOT, 'node_modules'));
  const gitUrl = gitRepository(join(scratch, 'git-work'), join(scratch, 'cursorhooks.git'));

  const fromGit = scratchProject(join(scratch, 'git-app'), gitUrl, byName, scratch, registry.url);
  // A folder after `npm ci` has the build tools: installing it runs the prepare build there;
  // `npm pack` of that folder then finds its build up to date and packs it.
  const folder = copySources(join(scratch, 'folder'));
  const fromFolder = scratchProject(join(scratch, 'folder-app'), `file:${folder}`, byName, scratch);
  const fromTarball = fromFolder.then(async () => {
    const output = await npmAsync(
      ['pack', '--pack-destination', scratch, '--json'],
      folder,
      scratch,
    );
    const [packed] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
    if (packed === undefined) throw new Error('npm pack reported no package');
    packedFiles = packed.files.map((file) => file.path);
    const tarball = `file:${join(scratch, packed.filename)}`;
    return scratchProject(join(scratch, 'tarball-app'), tarball, byName, scratch);
  });
  const fresh = freshCopy(join(scratch, 'fresh'));
  const fromFresh = scratchProject(join(scratch, 'fresh-app'), `file:${fresh}`, byName, scratch)
    .then(() => 'installed')
    .catch((err: { stderr?: unknown }) => String(err.stderr));

  const [git, tarball, folderApp] = await Promise.all([fromGit, fromTarball, fromFolder]);
  installed.set('git', git).set('tarball', tarball).set('folder', folderApp);
  freshFolderFailure = await fromFresh;
}, 400_000);

afterAll(async () => {
  await registry?.close();
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
}, 120_000);

function app(from: From): string {
  const directory = installed.get(from);
  if (directory === undefined) throw new Error(`no ${from} install`);
  return directory;
}

function node(cwd: string, args: readonly string[], input = ''): string {
  return execFileSync(process.execPath, args, { cwd, input, encoding: 'utf8' });
}

const IMPORT = `
import { createPlannerContainer, HookPlanner, LinuxUserShell32212, plan } from 'cursorhooks';
import { defaultHooksPath } from 'cursorhooks/node';
const result = plan({ operation: 'install', specs: [{ executable: '/a', selector: '/b' }],
  shell: LinuxUserShell32212, executableVerified: true });
const ids = createPlannerContainer().get(HookPlanner).contracts().map((c) => c.id);
console.log(JSON.stringify({ error: result.error ?? null, ids: ids.length,
  kit: typeof defaultHooksPath }));`;

const REQUIRE = `
const { plan, Operation } = require('cursorhooks');
const { version } = require('cursorhooks/package.json');
const result = plan({ operation: Operation.Remove });
console.log(JSON.stringify({ reason: result.error.reason, version }));`;

const HOST_ROOT = [
  "import { type ErrorReason, type PathRole, plan, type PlanResult } from 'cursorhooks';",
  "const result: PlanResult = plan({ operation: 'remove' });",
  'export const reason: ErrorReason | undefined = result.error?.reason;',
  "export const role: PathRole = 'selector';",
];
// The README's stop observer: a handler on cursorhooks/observer, its options typed.
const OBSERVER = `
import { runStopObserver } from 'cursorhooks/observer';
runStopObserver({ onStop: ({ payload }) => console.log('status', payload?.status) });`;
const HOST_OBSERVER = [
  "import { checkStopEvent, runStopObserver, type StopEvent } from 'cursorhooks/observer';",
  'const onStop = (event: StopEvent): string | null => event.problem ?? event.check?.verdict ?? null;',
  "runStopObserver({ onStop, contract: '3.40.1', deadlineMs: 2000 });",
  'export const check: typeof checkStopEvent = checkStopEvent;',
];
// The same observer as CommonJS, as docs/observer.md shows it for the fastest start.
const OBSERVER_CJS = `
const { runStopObserver } = require('cursorhooks/observer');
runStopObserver({ onStop: ({ payload }) => console.log('status', payload?.status) });`;
const HOST_KIT = [
  "import { defaultHooksPath, type LockOptions } from 'cursorhooks/node';",
  'export const locate: typeof defaultHooksPath = defaultHooksPath;',
  'export type Lock = LockOptions;',
];

describe('the packed package', () => {
  it('ships the build, types, schemas, README, the docs it links to and LICENSE, and no tests, sources or maps (red: the tarball is empty or bloated, or the README links into nothing)', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/node/index.d.ts',
      'dist/cli.cjs',
      'dist/cli-main.cjs',
      'dist/cli-main.cache',
      'dist/cli-main.install.cache',
      'dist/cli-main.status.cache',
      'dist/cli-main.plan.cache',
      'dist/cli-main.version.cache',
      'dist/observer.js',
      'dist/observer.cjs',
      'dist/observer.d.cts',
      'dist/src/observer/index.d.ts',
      'dist/contracts/builtin.js',
      'schemas/error.json',
      'schemas/plan-request.json',
      'schemas/qualify-result.json',
      'docs/protocol.md',
      'docs/contracts.md',
      // docs/observer.md names these files as the observers to copy.
      'docs/examples/stop-observer.mjs',
      'docs/examples/stop-observer.py',
      'docs/examples/stop-observer.sh',
    ]) {
      expect(packedFiles).toContain(file);
    }
    const unwanted = packedFiles.filter(
      (file) =>
        /^(test|src|contracts|fixtures|scripts|dist\/src\/cli)\//.test(file) ||
        /\.(map|tsbuildinfo)$/.test(file) ||
        /^dist\/test\//.test(file) ||
        // The observer ships as its bundle; its module files would be a second, unused copy.
        /^dist\/src\/observer\/.*\.js$/.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it('refuses a fresh folder without its devDependencies with what to do, not `tsc: not found` (red: the prepare build fails with exit 127)', () => {
    expect(freshFolderFailure).toContain('cursorhooks: cannot build');
    expect(freshFolderFailure).toContain('run `npm ci` in the checkout first');
    expect(freshFolderFailure).not.toContain('not found');
  });
});

describe.each(FROM)('installed from a %s', (from) => {
  it('loads both entries with import (red: ERR_MODULE_NOT_FOUND or a missing build)', () => {
    const result = JSON.parse(node(app(from), ['--input-type=module', '-e', IMPORT]));
    expect(result).toEqual({ error: null, ids: 3, kit: 'function' });
  });

  it('loads with require on Node >= 20.19 (red: ERR_PACKAGE_PATH_NOT_EXPORTED or ERR_REQUIRE_ESM)', () => {
    expect(JSON.parse(node(app(from), ['-e', REQUIRE]))).toEqual({
      reason: 'receipt-required',
      version: VERSION,
    });
  });

  // Byte-order marks, as Cursor's Windows stdin may begin; the handler's line goes to stderr.
  it.each([
    ['import, the ES module bundle', ['--input-type=module', '-e', OBSERVER], '\ufeff\ufeff'],
    ['require, the CommonJS bundle', ['-e', OBSERVER_CJS], '\ufeff'],
  ])(
    'answers a stop through cursorhooks/observer by %s, with {} and exit 0 (red: the ./observer export, its condition or its bundle is missing)',
    (_, args, boms) => {
      const payload = `${boms}${JSON.stringify({ hook_event_name: 'stop', status: 'completed' })}`;
      const child = spawnSync(process.execPath, args, {
        cwd: app(from),
        input: payload,
        encoding: 'utf8',
      });
      expect(child.stdout).toBe('{}\n');
      expect(child.status).toBe(0);
      expect(child.stderr).toContain('status completed');
    },
  );

  it('runs npx cursorhooks --version (red: the bin is missing or not executable)', () => {
    expect(npm('npx', ['--offline', 'cursorhooks', '--version'], app(from), scratch)).toBe(
      `${VERSION}\n`,
    );
  });

  // The README's TypeScript rows, compiled as a strict host would, library checks on.
  it.each([
    ['nodenext', [...HOST_ROOT, ...HOST_KIT, ...HOST_OBSERVER]],
    ['bundler', [...HOST_ROOT, ...HOST_KIT, ...HOST_OBSERVER]],
  ] as const)(
    'type-checks a strict host with moduleResolution %s and skipLibCheck off (red: the shipped .d.ts files do not compile)',
    (resolution, lines) => {
      expect(typecheck(app(from), resolution, lines, { skipLibCheck: false })).toEqual([]);
    },
  );

  // The observer's require condition has its own types (dist/observer.d.cts).
  it('type-checks a strict CommonJS host of cursorhooks/observer under Node16 with skipLibCheck off (red: require finds no types, or the ES types, which a CommonJS file may not import)', () => {
    expect(typecheck(app(from), 'node16-commonjs', HOST_OBSERVER, { skipLibCheck: false })).toEqual(
      [],
    );
  });

  it('type-checks a node10 host of the root entry with skipLibCheck on, as the README says (red: node10 support regressed)', () => {
    expect(typecheck(app(from), 'node10', HOST_ROOT, { skipLibCheck: true })).toEqual([]);
  });
});

describe('the README support matrix', () => {
  it('needs skipLibCheck under node10 only because inversify ships no types node10 finds (red: the caveat is stale or has another cause)', () => {
    const diagnostics = typecheck(app('tarball'), 'node10', HOST_ROOT, { skipLibCheck: false });
    expect(diagnostics.length).toBeGreaterThan(0);
    for (const line of diagnostics) expect(line).toMatch(/TS2307: Cannot find module 'inversify'/);
  });

  it('resolves the exported schemas by package path (red: ./schemas/* is not exported)', () => {
    const resolved = node(app('tarball'), [
      '-e',
      "console.log(require(require.resolve('cursorhooks/schemas/error.json')).$id)",
    ]);
    expect(resolved).toBe('urn:cursorhooks:schema:error\n');
  });

  it.each([
    ['NodeNext', 'NodeNext', true, true],
    ['Node16', 'Node16', true, true],
    ['Bundler', 'ESNext', true, true],
    ['Node10', 'CommonJS', true, false],
    ['Classic', 'ESNext', false, false],
  ] as const)(
    'resolves the types with moduleResolution %s (module %s): root %s, subpaths %s (red: the documented matrix is wrong)',
    (resolution, module, root, subpaths) => {
      const cwd = app('tarball');
      const options: ts.CompilerOptions = {
        moduleResolution: ts.ModuleResolutionKind[resolution],
        module: ts.ModuleKind[module],
        resolveJsonModule: true,
      };
      const resolve = (specifier: string) =>
        ts.resolveModuleName(specifier, join(cwd, 'check.ts'), options, ts.sys).resolvedModule
          ?.resolvedFileName;
      expect(resolve('cursorhooks')).toBe(
        root ? join(cwd, 'node_modules/cursorhooks/dist/src/index.d.ts') : undefined,
      );
      expect(resolve('cursorhooks/node') !== undefined).toBe(subpaths);
    },
  );
});
