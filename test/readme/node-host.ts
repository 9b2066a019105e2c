import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinuxUserShell32212, Operation } from 'cursorhooks';
import { readStatus, runOperation } from 'cursorhooks/node';

// A scratch home for the example. A real host passes defaultHooksPath() (or the user's choice),
// a ledger path of its own, and the executable and selector it ships.
const home = await mkdtemp(join(tmpdir(), 'acme-'));
const hooksFile = join(home, '.cursor', 'hooks.json');
const ledger = join(home, '.config', 'acme', 'cursorhooks-ledger.json');
const spec = { executable: join(home, 'acme-notify'), selector: join(home, 'stop.json') };
await writeFile(spec.executable, '#!/bin/sh\n', { mode: 0o755 });
await writeFile(spec.selector, '{}\n');

// One call: lock, settle an interrupted run, check the host paths, plan, record the intended
// receipt, compare-and-swap the bytes, commit. Refusals and failures come back, never thrown.
const installed = await runOperation({
  operation: Operation.Install,
  hooksFile,
  ledger,
  spec,
  shell: LinuxUserShell32212,
});
assert.equal(installed.status, 'done', installed.error?.reason);
assert.equal(installed.hostPaths?.verified, true);
assert.equal(installed.generation, 1);

// What state is everything in, and what is the next safe step? It only reads.
const status = await readStatus({ hooksFile, ledger });
assert.equal(status.owned.state, 'owned');
assert.equal(status.nextStep.code, 'none');

// Remove needs only the ledger's receipt; the removal is recorded there.
const removed = await runOperation({ operation: Operation.Remove, hooksFile, ledger });
assert.equal(removed.status, 'done');
assert.equal((await readStatus({ hooksFile, ledger })).owned.state, 'removed');
await rm(home, { recursive: true });
