import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinuxUserShell32212, Operation } from 'cursorhooks';
import { diagnoseHooks, runOperation } from 'cursorhooks/node';

// A scratch home with our entry installed, as any host installs it.
const home = await mkdtemp(join(tmpdir(), 'acme-'));
const hooksFile = join(home, '.cursor', 'hooks.json');
const ledger = join(home, '.config', 'acme', 'cursorhooks-ledger.json');
const spec = { executable: join(home, 'acme-notify'), selector: join(home, 'stop.json') };
await writeFile(spec.executable, '#!/bin/sh\n', { mode: 0o755 });
await writeFile(spec.selector, '{}\n');
const shell = LinuxUserShell32212;
const installed = await runOperation({
  operation: Operation.Install,
  hooksFile,
  ledger,
  spec,
  shell,
});
assert.equal(installed.status, 'done', installed.error?.reason);

// Another tool copies our command into Claude Code's user settings, which Cursor also runs.
const { command } = JSON.parse(await readFile(hooksFile, 'utf8')).hooks.stop[0];
await mkdir(join(home, '.claude'));
const claude = { hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } };
await writeFile(join(home, '.claude', 'settings.json'), JSON.stringify(claude));

// Every source, read only: no lock, no write. The ledger's receipt names our command.
// enterpriseFile: null skips the machine's file, which a real host leaves to the default.
const diagnosis = await diagnoseHooks({ home, ledger, enterpriseFile: null });
assert.equal(diagnosis.owned, 'receipted');
assert.equal(diagnosis.voided, false); // our entry in the user file still runs: doctor exits 0
assert.equal(diagnosis.worst, 'fires-twice');
assert.equal(diagnosis.findings.length, 1);
const [copy] = diagnosis.findings;
assert.equal(copy?.code, 'owned-elsewhere');
assert.equal(copy?.source, 'claude-user');
assert.equal(copy?.event, 'Stop');
assert.deepEqual([copy?.eventIndex, copy?.index, copy?.hook, copy?.ours], [0, 0, 0, true]);
assert.deepEqual(
  diagnosis.sources.map(({ source, state }) => [source, state]),
  [
    ['user', 'read'],
    ['claude-user', 'read'],
  ],
);
await rm(home, { recursive: true });
