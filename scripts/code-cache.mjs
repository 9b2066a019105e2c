// The code cache of dist/cli-main.cjs, made from the calls whose start-up counts: each call
// starts from the cache the one before wrote, so the last holds what all of them compiled. The
// calls run in a temporary home: install --dry-run on the fresh file, a real install (the lock,
// the writer and the ledger, about 2 ms of compiling on every write otherwise), then status,
// plan and --version.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('code-cache-run.cjs', import.meta.url));
const CACHE = fileURLToPath(new URL('../dist/cli-main.cache', import.meta.url));
const SHELL = 'cursor-linux-user-3.22.12-single-quote';

export function writeCodeCache() {
  rmSync(CACHE, { force: true });
  const home = mkdtempSync(join(tmpdir(), 'cursorhooks-code-cache-'));
  try {
    mkdirSync(join(home, '.cursor'));
    const executable = join(home, 'agent');
    writeFileSync(executable, '#!/bin/sh\n');
    chmodSync(executable, 0o755);
    const selector = join(home, 'stop.json');
    writeFileSync(selector, '{}\n');
    const hooks = join(home, '.cursor', 'hooks.json');
    writeFileSync(hooks, '{\n  "version": 1,\n  "hooks": {}\n}\n');
    const files = ['--hooks-file', hooks, '--ledger', join(home, 'ledger.json')];
    const spec = ['--executable', executable, '--selector', selector, '--shell', SHELL];
    const request = JSON.stringify({
      operation: 'install',
      specs: [{ executable, selector }],
      shell: SHELL,
      executableVerified: true,
    });
    const calls = [
      { args: ['install', ...files, ...spec, '--dry-run'] },
      { args: ['install', ...files, ...spec] },
      { args: ['status', ...files] },
      { args: ['plan'], input: request },
      { args: ['--version'] },
    ];
    for (const { args, input = '' } of calls) {
      const call = spawnSync(process.execPath, [RUN, ...args], { input, encoding: 'utf8' });
      if (call.status !== 0) {
        throw new Error(`code cache: cursorhooks ${args[0]} exited ${call.status}: ${call.stderr}`);
      }
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
