import assert from 'node:assert/strict';
import {
  createPlannerContainer,
  HookPlanner,
  LinuxUserShell32212,
  Operation,
  type QualificationEvidence,
  SHELL_CONTRACT,
  type ShellContract,
} from 'cursorhooks';

// A host that qualified a newer client with the same grammar registers it under its own id
// and evidence, delegating to the built-in grammar instead of writing a second one.
const builtIn = createPlannerContainer()
  .get(HookPlanner)
  .contracts()
  .find((contract) => contract.id === LinuxUserShell32212);
assert.ok(builtIn);
const grammar: ShellContract = builtIn;

const evidence: QualificationEvidence = {
  client: 'Cursor IDE',
  version: '3.23.0',
  platform: 'linux',
  arch: 'x64',
  date: '2026-11-20',
  run: 'host qualification run 42',
  observed: ['a genuine stop hook', 'argv with spaces and apostrophes arrived unchanged'],
  notObserved: ['any other platform or version'],
  artifacts: [],
};

const qualified: ShellContract = {
  id: 'acme-cursor-linux-user-3.23.0-single-quote',
  evidence,
  assertCanonicalPath: (path, role) => grammar.assertCanonicalPath(path, role),
  render: (argv) => grammar.render(argv),
};

// Bind before the first get: the registry is built once per container.
const container = createPlannerContainer();
container.bind(SHELL_CONTRACT).toConstantValue(qualified);
const planner = container.get(HookPlanner);

const result = planner.plan({
  operation: Operation.Install,
  specs: [{ executable: '/opt/agent/bin/agent', selector: '/opt/agent/binding.json' }],
  shell: qualified.id,
  executableVerified: true,
});
assert.equal(result.error, undefined);
assert.equal(result.receipt?.shell, qualified.id);
assert.deepEqual(
  planner.contracts().map((contract) => contract.id),
  [
    'cursor-linux-user-3.22.12-single-quote',
    'cursor-darwin-cli-2026.09.18-single-quote',
    'cursor-windows-cli-2026.10.01-powershell-stop',
    qualified.id,
  ],
);
