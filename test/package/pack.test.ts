// SPEC §10 packaging: the package packed from a clean copy of the sources, installed offline
// into scratch projects (from the tarball and from a folder), used as a host would: import,
// require, npx, the schemas and the TypeScript types. One pack per run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySources, npm, pack, ROOT, runtimeDependencies, scratchProject } from './scratch.js';

const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
// Another change adds the host kit entry; until it exists here, only that subpath is skipped.
const HAS_NODE_ENTRY = existsSync(join(ROOT, 'src/node/index.ts'));

let scratch = '';
let packedFiles: string[] = [];
let fromTarball = '';
let fromFolder = '';

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cursorhooks-pack-'));
  const sources = copySources(join(scratch, 'repo'));
  const output = npm(['npm', 'pack', '--pack-destination', scratch, '--json'], sources, scratch);
  const [packed] = JSON.parse(output) as { filename: string; files: { path: string }[] }[];
  if (packed === undefined) throw new Error('npm pack reported no package');
  packedFiles = packed.files.map((file) => file.path);

  const dependencies = runtimeDependencies();
  const tarballs = pack([...dependencies.values()], ROOT, scratch, join(scratch, 'deps'));
  const byName = new Map(
    [...dependencies.keys()].map((name, index) => [
      name,
      join(scratch, 'deps', tarballs[index] ?? ''),
    ]),
  );
  fromTarball = scratchProject(
    join(scratch, 'tarball-app'),
    `file:${join(scratch, packed.filename)}`,
    byName,
    scratch,
  );
  // A folder (like a git checkout) has no dist: installing it must run the prepare build.
  const folder = copySources(join(scratch, 'folder'));
  fromFolder = scratchProject(join(scratch, 'folder-app'), `file:${folder}`, byName, scratch);
}, 300_000);

afterAll(() => {
  if (scratch !== '') rmSync(scratch, { recursive: true, force: true });
}, 120_000);

function node(cwd: string, args: readonly string[], input = ''): string {
  return execFileSync(process.execPath, args, { cwd, input, encoding: 'utf8' });
}

const IMPORT = `
import { createPlannerContainer, HookPlanner, LinuxUserShell32212, plan } from 'cursorhooks';
const result = plan({ operation: 'install', specs: [{ executable: '/a', selector: '/b' }],
  shell: LinuxUserShell32212, executableVerified: true });
const ids = createPlannerContainer().get(HookPlanner).contracts().map((c) => c.id);
console.log(JSON.stringify({ error: result.error ?? null, ids: ids.length }));`;

const REQUIRE = `
const { plan, Operation } = require('cursorhooks');
const { version } = require('cursorhooks/package.json');
const result = plan({ operation: Operation.Remove });
console.log(JSON.stringify({ reason: result.error.reason, version }));`;

describe('the packed package', () => {
  it('ships the build, types, schemas, README and LICENSE, and no tests, sources or maps (red: the tarball is empty or bloated)', () => {
    for (const file of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/cli.js',
      'dist/contracts/builtin.js',
      'schemas/error.json',
      'schemas/plan-request.json',
    ]) {
      expect(packedFiles).toContain(file);
    }
    const unwanted = packedFiles.filter(
      (file) =>
        /^(test|src|contracts|fixtures|dist\/src\/cli)\//.test(file) ||
        /\.(map|tsbuildinfo)$/.test(file) ||
        /^dist\/test\//.test(file),
    );
    expect(unwanted).toEqual([]);
  });

  it.each([['tarball'], ['folder']])(
    'loads with import from a %s install (red: ERR_MODULE_NOT_FOUND or a missing build)',
    (from) => {
      const cwd = from === 'tarball' ? fromTarball : fromFolder;
      const result = JSON.parse(node(cwd, ['--input-type=module', '-e', IMPORT]));
      expect(result).toEqual({ error: null, ids: 3 });
    },
  );

  it.each([['tarball'], ['folder']])(
    'loads with require from a %s install on Node >= 20.19 (red: ERR_PACKAGE_PATH_NOT_EXPORTED)',
    (from) => {
      const cwd = from === 'tarball' ? fromTarball : fromFolder;
      expect(JSON.parse(node(cwd, ['-e', REQUIRE]))).toEqual({
        reason: 'receipt-required',
        version: VERSION,
      });
    },
  );

  it.each([['tarball'], ['folder']])(
    'runs npx cursorhooks from a %s install (red: the bin is missing or not executable)',
    (from) => {
      const cwd = from === 'tarball' ? fromTarball : fromFolder;
      expect(npm(['npx', '--offline', 'cursorhooks', '--version'], cwd, scratch)).toBe(
        `${VERSION}\n`,
      );
    },
  );

  it('resolves the exported schemas by package path (red: ./schemas/* is not exported)', () => {
    const resolved = node(fromTarball, [
      '-e',
      "console.log(require(require.resolve('cursorhooks/schemas/error.json')).$id)",
    ]);
    expect(resolved).toBe('urn:cursorhooks:schema:error\n');
  });

  it.skipIf(!HAS_NODE_ENTRY)(
    'loads the cursorhooks/node host kit entry (red: the subpath export points nowhere)',
    () => {
      expect(
        node(fromTarball, [
          '--input-type=module',
          '-e',
          "import('cursorhooks/node').then((m) => console.log(typeof m))",
        ]),
      ).toBe('object\n');
    },
  );

  // The README's TypeScript support matrix, resolved by the project's own TypeScript.
  it.each([
    ['NodeNext', 'NodeNext', true, true],
    ['Node16', 'Node16', true, true],
    ['Bundler', 'ESNext', true, true],
    ['Node10', 'CommonJS', true, false],
    ['Classic', 'ESNext', false, false],
  ] as const)(
    'resolves the types with moduleResolution %s (module %s): root %s, subpaths %s (red: the documented matrix is wrong)',
    (resolution, module, root, subpaths) => {
      const options: ts.CompilerOptions = {
        moduleResolution: ts.ModuleResolutionKind[resolution],
        module: ts.ModuleKind[module],
        resolveJsonModule: true,
      };
      const resolve = (specifier: string) =>
        ts.resolveModuleName(specifier, join(fromTarball, 'check.ts'), options, ts.sys)
          .resolvedModule?.resolvedFileName;
      expect(resolve('cursorhooks')).toBe(
        root ? join(fromTarball, 'node_modules/cursorhooks/dist/src/index.d.ts') : undefined,
      );
      if (HAS_NODE_ENTRY) {
        expect(resolve('cursorhooks/node') !== undefined).toBe(subpaths);
      }
    },
  );

  it('type-checks a strict NodeNext host against the installed types (red: the shipped .d.ts files do not compile)', () => {
    const dir = join(fromTarball, 'host');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
    writeFileSync(
      join(dir, 'host.ts'),
      [
        "import { type ErrorReason, type PathRole, plan, type PlanResult } from 'cursorhooks';",
        "const result: PlanResult = plan({ operation: 'remove' });",
        'export const reason: ErrorReason | undefined = result.error?.reason;',
        "export const role: PathRole = 'selector';",
        '',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', 'host.ts'];
    let diagnostics = '';
    try {
      execFileSync(process.execPath, [tsc, ...args], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      diagnostics = String((err as { stdout?: unknown }).stdout);
    }
    expect(diagnostics).toBe('');
  });
});
