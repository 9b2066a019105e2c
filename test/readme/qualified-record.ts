import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  checkStopEvent,
  createPlannerContainer,
  HookPlanner,
  Operation,
  qualifiedContract,
  SHELL_CONTRACT,
} from 'cursorhooks';

// The record `cursorhooks qualify finish --out record.json` wrote. qualifiedContract validates
// it strictly and throws UnsupportedError (a record-… reason) for a hand-edited one.
const record: unknown = JSON.parse(await readFile(new URL('record.json', import.meta.url), 'utf8'));
const contract = qualifiedContract(record);

// Bind before the first get: the registry is built once per container.
const container = createPlannerContainer();
container.bind(SHELL_CONTRACT).toConstantValue(contract);
const result = container.get(HookPlanner).plan({
  operation: Operation.Install,
  specs: [{ executable: '/opt/acme/bin/acme-notify', selector: '/opt/acme/stop.json' }],
  shell: contract.id,
  executableVerified: true,
});
assert.equal(result.error, undefined);

// In the stop observer: did this stop come from the build the record qualified?
const stdin = '{"hook_event_name": "stop", "cursor_version": "3.41.0", "status": "completed"}';
const check = checkStopEvent(stdin, contract);
assert.equal(check.verdict, 'version-differs'); // Cursor updated itself: qualify again
assert.equal(check.expected, '3.40.1');
