import assert from 'node:assert/strict';
import { LinuxUserShell32212, Operation, plan, verifyOwned } from 'cursorhooks';

// What the host passes: its own executable and selector, checked on disk (no-follow) first.
const spec = {
  executable: '/opt/Agent Tools/bin/agent',
  selector: "/home/dana/.config/agent/dana's binding.json",
};
const request = {
  operation: Operation.Install,
  specs: [spec],
  shell: LinuxUserShell32212,
  executableVerified: true,
} as const;

// The bytes the host read from ~/.cursor/hooks.json (undefined when the file is absent).
const current = new TextEncoder().encode(
  '{\n  "version": 1,\n  "hooks": {\n    "afterFileEdit": [{ "command": "./format.sh" }]\n  }\n}\n',
);

const installed = plan({ ...request, document: current });
assert.equal(installed.error, undefined);
assert.ok(installed.receipt);
// Write `installed.desired` with an exact-bytes compare-and-swap, then store the receipt.
const receipt = installed.receipt.toJSON();

// Later, from the stored receipt: is the entry still ours? Throws ConflictError if not.
verifyOwned(installed.desired, receipt);

// Installing again with the receipt is a byte no-op; without it, a refusal, never a duplicate.
const again = plan({ ...request, document: installed.desired, previous: receipt });
assert.equal(again.noOp, true);
const duplicate = plan({ ...request, document: installed.desired });
assert.equal(duplicate.error?.reason, 'command-exists');

// Remove takes only the receipt: the executable may already be gone.
const removed = plan({
  operation: Operation.Remove,
  document: installed.desired,
  previous: receipt,
});
assert.equal(removed.error, undefined);
