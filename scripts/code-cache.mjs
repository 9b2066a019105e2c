// The code caches of dist/cli-main.cjs, made from the calls whose start-up counts. V8 reads a
// whole cache on every call, so the commands timed most get one each (cli-main.<command>.cache,
// holding only what that command compiles: --version with every command's code in its cache
// cost about 0.08x a bare node more), and every other command the shared cli-main.cache, made
// from the read-only ones. Each call of a cache starts from the cache the one before wrote, so the last
// holds what all of them compiled; every group runs in a fresh temporary home.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUN = fileURLToPath(new URL('code-cache-run.cjs', import.meta.url));
const BIN = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const SHELL = 'cursor-linux-user-3.22.12-single-quote';

/** A home with an empty hooks.json, an executable and a selector; the calls' arguments for it. */
function freshHome() {
  const home = mkdtempSync(join(tmpdir(), 'cursorhooks-code-cache-'));
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
  const calls = {
    dryRun: { args: ['install', ...files, ...spec, '--dry-run'] },
    install: { args: ['install', ...files, ...spec] },
    // Status after an install, as a host asks it; the install is set-up, run without recording.
    installed: { args: ['install', ...files, ...spec], setUp: true },
    status: { args: ['status', ...files] },
    plan: { args: ['plan'], input: request },
    version: { args: ['--version'] },
  };
  return { home, calls };
}

/** Each cache file in dist/ and the calls that make it, in order. */
const CACHES = [
  ['cli-main.install.cache', (c) => [c.dryRun, c.install]],
  ['cli-main.status.cache', (c) => [c.installed, c.status]],
  ['cli-main.plan.cache', (c) => [c.plan]],
  ['cli-main.version.cache', (c) => [c.version]],
  // Read-only calls only: the write path would make every command without a cache of its own
  // deserialise it (measured 0.07x on contracts); a real write spends far longer in fsync.
  ['cli-main.cache', (c) => [c.dryRun, c.installed, c.status, c.plan, c.version]],
];

export function writeCodeCache() {
  for (const name of readdirSync(DIST)) {
    if (/^cli-main(\.[a-z]+)?\.cache$/.test(name)) rmSync(join(DIST, name));
  }
  for (const [name, callsOf] of CACHES) {
    const { home, calls } = freshHome();
    try {
      for (const { args, input = '', setUp = false } of callsOf(calls)) {
        const run = setUp ? [BIN, ...args] : [RUN, join(DIST, name), ...args];
        const call = spawnSync(process.execPath, run, { input, encoding: 'utf8' });
        if (call.status !== 0) {
          throw new Error(
            `code cache: cursorhooks ${args[0]} exited ${call.status}: ${call.stderr}`,
          );
        }
      }
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
}
