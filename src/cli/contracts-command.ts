import type { HookPlanner } from '../index.js';
import { ExitCode } from './exit-codes.js';
import { type CliIO, writeJSON } from './io.js';

/** `contracts`: the registered shell contracts, in registration order, with their evidence. */
export function contractsCommand(io: CliIO, planner: HookPlanner): ExitCode {
  writeJSON(
    io,
    planner.contracts().map((contract) => ({ id: contract.id, evidence: contract.evidence })),
  );
  return ExitCode.Ok;
}
