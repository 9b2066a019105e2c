import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '../../src/cli/stdin.js';
import { BUILT_CLI, spawnCli } from '../demo/cli-process.js';
import { installRequest, pretty } from './support.js';

const ROOT = new URL('../../', import.meta.url);

// Always build: a stale dist would test yesterday's CLI.
beforeAll(() => {
  execFileSync(
    process.execPath,
    [new URL('node_modules/typescript/bin/tsc', ROOT).pathname, '-p', 'tsconfig.build.json'],
    { cwd: ROOT, stdio: 'pipe' },
  );
}, 120_000);

describe('the built cursorhooks executable', () => {
  it('is the package bin and starts with a node shebang (red: npm would install a non-runnable bin)', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(new URL(pkg.bin.cursorhooks ?? '', ROOT).pathname).toBe(BUILT_CLI);
    expect(readFileSync(BUILT_CLI, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
  });

  it('exits 0, 1 and 2 for planned, refused and unusable requests (red: exit codes do not reach the process)', async () => {
    const planned = await spawnCli(
      ['plan'],
      JSON.stringify(installRequest(pretty({ version: 1 }))),
    );
    expect(planned.exitCode).toBe(0);
    expect(JSON.parse(planned.stdout)).toMatchObject({ noOp: false, error: null });

    const refused = await spawnCli(['plan'], JSON.stringify(installRequest('{"version":2}')));
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { reason: 'version-unsupported' } });

    const unusable = await spawnCli(['plan'], '{"document": 42}');
    expect(unusable).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'cursorhooks: document is not a string or null\n',
    });

    const help = await spawnCli(['render-argv', '--help'], '');
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cursorhooks render-argv/);
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
    expect(stderr).toBe('cursorhooks: the request on stdin exceeds 9 MiB\n');
  });
});
