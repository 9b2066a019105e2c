import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '../../src/cli/stdin.js';
import { userFile } from '../bench/documents.js';
import { BUILT_CLI, CLI_BUNDLE, spawnCli } from '../demo/cli-process.js';
import { record } from '../shell/records.js';
import { files, home, specArgs, writeHooks } from './file-support.js';
import { moduleLoads } from './module-loads.js';
import { installRequest, pretty } from './support.js';

/** The contract id of the qualification record `record()` writes. */
const QUALIFIED = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';

const ROOT = new URL('../../', import.meta.url);

// Always bundle: a stale dist would test yesterday's CLI.
beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

describe('the built cursorhooks executable', () => {
  it('is the package bin and starts with a node shebang (red: npm would install a non-runnable bin)', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(new URL(pkg.bin.cursorhooks ?? '', ROOT).pathname).toBe(BUILT_CLI);
    expect(readFileSync(BUILT_CLI, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  it('is a bin and one CommonJS bundle that require only node built-ins, never inversify (red: the bin needs files the package does not ship, or every call pays for the DI container)', () => {
    const requiredBy = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/\brequire\(["']([^"']+)["']\)/g)].map(
        (match) => match[1],
      );
    expect(requiredBy(BUILT_CLI).sort()).toEqual(['node:fs', 'node:path', 'node:vm']);
    const required = requiredBy(CLI_BUNDLE);
    expect(required).toContain('node:fs');
    // The optional xattr module is required through a variable, resolved where it is installed.
    const packages = required.filter((specifier) => !specifier?.startsWith('node:'));
    expect(packages).toEqual([]);
    const source = readFileSync(CLI_BUNDLE, 'utf8');
    // A module syntax line would make Node refuse the file; a real import() needs a flag in node:vm.
    expect(source).not.toMatch(/^(import|export) /m);
    expect(source).not.toMatch(/\bimport\(/);
    expect(source).not.toMatch(/inversify|reflect-metadata/);
  });

  it.each(['install', 'status', 'plan', '--version', 'remove'])(
    'compiles the bundle with the code cache the build made for %s, and V8 takes it (red: a stale, missing or mismatched cache leaves every call compiling the whole bundle)',
    (command) => {
      const bin = createRequire(import.meta.url)(BUILT_CLI) as {
        cacheFor: (command: string) => string;
        compileCli: (cache: string) => { script: { cachedDataRejected?: boolean } };
      };
      expect(bin.compileCli(bin.cacheFor(command)).script.cachedDataRejected).toBe(false);
    },
  );

  it.each([
    ['refused', Buffer.from('not a V8 code cache')],
    ['missing', undefined],
  ])(
    'answers the same with a %s code cache (red: a bad cache crashes the CLI or changes what it prints)',
    async (_, cache) => {
      const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-cache-'));
      try {
        for (const name of ['cli.cjs', 'cli-main.cjs']) {
          copyFileSync(join(dirname(BUILT_CLI), name), join(dir, name));
        }
        if (cache !== undefined) writeFileSync(join(dir, 'cli-main.cache'), cache);
        const request = JSON.stringify(installRequest(pretty({ version: 1 })));
        const copied = spawnSync(process.execPath, [join(dir, 'cli.cjs'), 'plan'], {
          input: request,
          encoding: 'utf8',
        });
        const built = await spawnCli(['plan'], request);
        expect(copied).toMatchObject({ status: 0, stderr: '', stdout: built.stdout });
        expect(JSON.parse(copied.stdout)).toMatchObject({ noOp: false });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('exits 0, 1 and 2 for planned, refused and unusable requests (red: exit codes do not reach the process)', async () => {
    const planned = await spawnCli(
      ['plan'],
      JSON.stringify(installRequest(pretty({ version: 1 }))),
    );
    expect(planned.exitCode).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ noOp: false });

    const refused = await spawnCli(['plan'], JSON.stringify(installRequest('{"version":2}')));
    expect(refused).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `${JSON.stringify({ error: { kind: 'unsupported', reason: 'version-unsupported', message: 'the document version is not the number 1', at: { offset: 11, line: 1, column: 12 } } })}\n`,
    });

    const unusable = await spawnCli(['plan'], '{"operation": "install", "document": 42}');
    expect(unusable.exitCode).toBe(2);
    expect(JSON.parse(unusable.stderr)).toMatchObject({
      error: { kind: 'usage', reason: 'field-type', field: 'document' },
    });

    const help = await spawnCli(['render-argv', '--help'], '');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cursorhooks render-argv/);
  });

  it('reads and writes shell pipes as it does sockets (red: a FIFO request or result is cut or lost)', () => {
    const request = JSON.stringify(installRequest(pretty({ version: 1 })));
    const command = `cat | "${process.execPath}" "${BUILT_CLI}" plan | cat`;
    const viaPipes = execFileSync('sh', ['-c', command], { input: request, encoding: 'utf8' });
    expect(JSON.parse(viaPipes)).toMatchObject({ noOp: false });
  });

  it('exits 2 for binary stdin with one error (red: binary input crashes or is decoded lossily)', async () => {
    const outcome = await spawnCli(['verify'], Buffer.from([0x7b, 0xc3, 0x28, 0x00, 0xff, 0x7d]));
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(JSON.parse(outcome.stderr)).toEqual({
      error: {
        kind: 'usage',
        reason: 'request-not-utf8',
        message: 'the request on stdin is not UTF-8 text',
      },
    });
  });

  it('exits 2 for an oversized stdin pipe without hanging (red: the cap or the early stop fails on a real pipe)', async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'plan'], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // The child closes its end early, so the rest of this write fails with EPIPE by design.
    child.stdin.on('error', () => {});
    child.stdin.end(Buffer.alloc(MAX_REQUEST_BYTES + 4 * 1024 * 1024, 0x20));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(JSON.parse(stderr)).toEqual({
      error: {
        kind: 'usage',
        reason: 'request-too-large',
        message: 'the request on stdin exceeds 9 MiB',
      },
    });
  });

  it('exits 141 quietly when stdout is closed before it writes (red: EPIPE ends in a stack trace)', async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'contracts', '--json'], { stdio: 'pipe' });
    // Closed before the child has even loaded, so its first write meets a pipe without reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(141);
    expect(stderr).toBe('');
  });
});

// Start-up: a call evaluates only what its command needs (the times are in npm run bench).
describe('what one call of the built executable evaluates', () => {
  const planner = /^(src\/(planner|json|domain|shell)|contracts)\//;
  // The interrupt clean-up (and the open flags it reads lock names with) is wired before any
  // command runs; the rest of the kit is not.
  const hostKit =
    /^src\/node\/(?!side-files\/interrupt\.ts$|side-files\/side-file-registry\.ts$|write\/fs-calls\.ts$)/;
  const ofCommands = (modules: readonly string[]) =>
    modules.filter((module) => module.startsWith('src/cli/commands/')).sort();
  const ofPackages = (modules: readonly string[]) =>
    modules.filter((module) => module.startsWith('node_modules/'));

  it('--version evaluates no command, no planner, no host kit, no diff and no crypto (red: every call evaluates the whole CLI)', () => {
    const { evaluated, builtins } = moduleLoads(['--version']);
    expect(evaluated).toContain('src/cli/main.ts');
    expect(evaluated.filter((module) => planner.test(module) || hostKit.test(module))).toEqual([]);
    expect(ofPackages(evaluated)).toEqual([]);
    // help.ts holds unknownCommand, which every mistyped command needs.
    expect(ofCommands(evaluated)).toEqual(['src/cli/commands/help.ts']);
    for (const heavy of ['node:crypto', 'node:fs/promises', 'node:perf_hooks']) {
      expect(builtins).not.toContain(heavy);
    }
  });

  it('plan evaluates the planner but not the host kit or the diff (red: a pure command pays for the file commands)', () => {
    const request = JSON.stringify(installRequest(pretty({ version: 1 })));
    const { evaluated, builtins } = moduleLoads(['plan'], request);
    expect(evaluated).toContain('src/planner/hook-planner.ts');
    expect(evaluated.filter((module) => hostKit.test(module))).toEqual([]);
    expect(ofPackages(evaluated)).toEqual([]);
    expect(ofCommands(evaluated)).toEqual(['src/cli/commands/help.ts', 'src/cli/commands/plan.ts']);
    expect(builtins).not.toContain('node:fs/promises');
  });

  it("status evaluates the kit's status but not the writer or the diff; install --dry-run both (red: a command evaluates another's code)", () => {
    const where = home();
    writeHooks(where);
    const status = moduleLoads(['status', ...files(where)]).evaluated;
    expect(status).toContain('src/node/status/status.ts');
    expect(status).not.toContain('src/node/run-operation.ts');
    expect(ofPackages(status)).toEqual([]);
    expect(ofCommands(status)).toEqual(['src/cli/commands/help.ts', 'src/cli/commands/status.ts']);

    const install = moduleLoads(['install', ...files(where), ...specArgs(where.spec), '--dry-run']);
    expect(install.evaluated).toContain('src/node/run-operation.ts');
    expect(install.evaluated).toContain('node_modules/diff/libesm/patch/create.js');
    expect(install.evaluated).not.toContain('src/node/status/status.ts');
    expect(ofCommands(install.evaluated)).toEqual([
      'src/cli/commands/help.ts',
      'src/cli/commands/install.ts',
    ]);
  });

  it('plan, status and install --dry-run load neither node:crypto, node:fs/promises, node:perf_hooks nor node:os (red: a call that never writes pays for crypto and its streams, readline, the fs watchers, the perf hooks or an OS query it never makes)', () => {
    // status alone asks the OS for the home directory: Claude Code's user settings, which
    // status summarises doctor's findings over, live there.
    const where = home();
    writeHooks(where);
    const calls: [string[], string][] = [
      [['plan'], JSON.stringify(installRequest(pretty({ version: 1 })))],
      [['status', ...files(where)], ''],
      [['install', ...files(where), ...specArgs(where.spec), '--dry-run'], ''],
    ];
    for (const [args, stdin] of calls) {
      const { builtins } = moduleLoads(args, stdin);
      expect(builtins).toContain('node:fs');
      expect(builtins).not.toContain('node:crypto');
      expect(builtins).not.toContain('node:fs/promises');
      expect(builtins).not.toContain('node:perf_hooks');
      if (args[0] !== 'status') expect(builtins).not.toContain('node:os');
    }
  });

  it('a real install loads neither node:crypto nor node:perf_hooks (red: a write pays for crypto and its streams for a random name, or for the perf hooks for its lock deadline)', () => {
    const where = home();
    writeHooks(where);
    const { builtins } = moduleLoads(['install', ...files(where), ...specArgs(where.spec)]);
    expect(builtins).toContain('node:fs');
    expect(builtins).not.toContain('node:crypto');
    expect(builtins).not.toContain('node:perf_hooks');
    expect(readFileSync(where.hooks, 'utf8')).toContain('"stop"');
  });

  it('an install with --contract-file, and a remove finding it in the ledger, load no node:crypto (red: the digest of the record pulls in node:crypto and its streams)', () => {
    const where = home();
    writeHooks(where);
    const path = join(where.dir, 'record.json');
    writeFileSync(path, JSON.stringify(record()));
    const { executable, selector } = where.spec;
    const spec = ['--executable', executable, '--selector', selector, '--shell', QUALIFIED];
    const installed = moduleLoads(['install', ...files(where), ...spec, '--contract-file', path]);
    expect(installed.builtins).not.toContain('node:crypto');
    const ledger = JSON.parse(readFileSync(where.ledger, 'utf8'));
    expect(ledger.files[where.hooks].contractFile.path).toBe(path);
    expect(moduleLoads(['remove', ...files(where)]).builtins).not.toContain('node:crypto');
    expect(readFileSync(where.hooks, 'utf8')).not.toContain('cursor-event');
  });

  it("loads node:os on demand, where a call needs the home directory (red: the bundle's on-demand node:os gives a wrong or missing home)", () => {
    const where = home();
    const call = spawnSync(
      process.execPath,
      [BUILT_CLI, 'status', '--ledger', where.ledger, '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: where.dir },
      },
    );
    expect(call.stderr).toBe('');
    expect(JSON.parse(call.stdout).hooksFile).toBe(join(where.dir, '.cursor', 'hooks.json'));
  });
});

// The hash of the bundle runs on WebAssembly; a Node without it must answer the same.
describe('the built executable hashing a realistic hooks.json', () => {
  const dryRun = () => {
    const where = home();
    writeHooks(where, userFile());
    return ['install', ...files(where), ...specArgs(where.spec), '--dry-run'];
  };

  it('leaves V8 no function to optimise in an install --dry-run (red: the hash runs as JavaScript hot enough for an optimising compile, which the process waits for at exit)', () => {
    const call = spawnSync(process.execPath, ['--trace-opt', BUILT_CLI, ...dryRun()], {
      encoding: 'utf8',
    });
    expect(call.status).toBe(0);
    expect(call.stdout).toContain('dry run');
    expect(call.stdout).not.toMatch(/for optimization/);
  });

  it('answers the same without WebAssembly, node --jitless (red: the JavaScript fallback hashes differently or crashes)', () => {
    const args = dryRun();
    const withWasm = spawnSync(process.execPath, [BUILT_CLI, ...args, '--json'], {
      encoding: 'utf8',
    });
    const without = spawnSync(process.execPath, ['--jitless', BUILT_CLI, ...args, '--json'], {
      encoding: 'utf8',
    });
    // V8's own notice of the flag, and nothing from the CLI.
    expect(without.stderr).toBe('Warning: disabling flag --expose_wasm due to conflicting flags\n');
    expect(without.status).toBe(0);
    expect(JSON.parse(without.stdout).receipt.entryDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(without.stdout).toBe(withWasm.stdout);
  });
});
