import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_BYTES } from '../../src/cli/stdin.js';
import { BUILT_CLI, spawnCli } from '../demo/cli-process.js';
import { installRequest, pretty } from './support.js';

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

  it('is one bundled file that never imports inversify (red: every call pays for the DI container)', () => {
    const source = readFileSync(BUILT_CLI, 'utf8');
    const imported = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((match) => match[1]);
    expect(imported).toContain('node:util');
    expect(
      imported.filter((specifier) => /inversify|reflect-metadata/.test(specifier ?? '')),
    ).toEqual([]);
    expect(imported.filter((specifier) => specifier?.startsWith('.'))).toEqual([]);
  });

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
