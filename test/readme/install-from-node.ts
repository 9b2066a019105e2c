import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Operation, LinuxUserShell32212 as shell } from 'cursorhooks';
import { defaultHooksPath, readStatus, runOperation } from 'cursorhooks/node';

const home = homedir();
const files = { hooksFile: defaultHooksPath(), ledger: join(home, '.config/acme/ledger.json') };
const spec = {
  executable: join(home, '.local/bin/acme-notify'),
  selector: join(home, '.config/acme/stop.json'),
};

// Lock, check the host paths, plan, compare-and-swap, record the receipt; refusals are returned.
const installed = await runOperation({ operation: Operation.Install, ...files, spec, shell });
assert.equal(installed.status, 'done', installed.error?.reason);

const { nextStep } = await readStatus(files); // what state, and the one safe next step
assert.equal(nextStep.code, 'none', nextStep.sentence);

const removed = await runOperation({ operation: Operation.Remove, ...files });
assert.equal(removed.status, 'done', removed.error?.reason);
