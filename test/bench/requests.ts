// The plan requests every group shares: the spec and shell of the planner tests, and what
// `plan` writes for a spec, so jsonc-parser can be asked to write the same.

import {
  type HookSpec,
  LinuxUserShell32212,
  Operation,
  type PlanRequest,
  type PlanResult,
} from '../../src/index.js';

export const SHELL = LinuxUserShell32212;

/** A space in the executable, an apostrophe in the selector. */
export const SPEC: HookSpec = {
  executable: '/opt/agent bin/agent',
  selector: "/home/u/it's/binding.json",
};

/** The spec Update moves to. */
export const OTHER_SPEC: HookSpec = {
  executable: '/opt/agent bin/agent-2',
  selector: "/home/u/it's/other binding.json",
};

export const installRequest = (document: Uint8Array): PlanRequest => ({
  document,
  operation: Operation.Install,
  specs: [SPEC],
  shell: SHELL,
  executableVerified: true,
});

/** The owned entry `plan` writes for `spec` (SPEC §1: POSIX single quotes, four members). */
export function entryOf(spec: HookSpec): Record<string, unknown> {
  const quote = (token: string) => `'${token.replaceAll("'", `'"'"'`)}'`;
  const argv = [spec.executable, 'cursor-event', 'stop', '--binding', spec.selector];
  return { type: 'command', command: argv.map(quote).join(' '), timeout: 5, failClosed: false };
}

/** The result, if `plan` accepted the request; throws with the refusal reason otherwise. */
export function succeeded(result: PlanResult, what: string): PlanResult {
  if (result.conflict) throw new Error(`${what} was refused: ${result.error?.reason}`);
  return result;
}
