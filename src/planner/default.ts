import { BUILTIN_CONTRACTS } from '../../contracts/builtin.js';
import type { Receipt, ReceiptJSON } from '../domain/receipt.js';
import type { ShellContract } from '../shell/contract.js';
import { ShellContractRegistry } from '../shell/registry.js';
import { HookPlanner } from './hook-planner.js';
import type { PlanRequest, PlanResult } from './request.js';

let builtinPlanner: HookPlanner | undefined;

/**
 * The planner with exactly the built-in contracts, built on first use. It is what the default
 * container resolves, wired by hand so the module-level functions and the CLI never load
 * inversify (importing it is most of a CLI call's start-up).
 */
export function defaultPlanner(): HookPlanner {
  builtinPlanner ??= new HookPlanner(
    new ShellContractRegistry(BUILTIN_CONTRACTS.map((Contract) => new Contract())),
  );
  return builtinPlanner;
}

/**
 * A planner with the built-in contracts and `extra` (e.g. contracts qualified on this machine),
 * also without inversify. The registry refuses a duplicate id as the container's does.
 */
export function plannerWith(extra: readonly ShellContract[]): HookPlanner {
  if (extra.length === 0) return defaultPlanner();
  const builtins = BUILTIN_CONTRACTS.map((Contract) => new Contract());
  return new HookPlanner(new ShellContractRegistry([...builtins, ...extra]));
}

export function plan(request: PlanRequest): PlanResult {
  return defaultPlanner().plan(request);
}

export function verifyOwned(document: Uint8Array, receipt: Receipt | ReceiptJSON): void {
  defaultPlanner().verifyOwned(document, receipt);
}

export function renderArgv(shell: string, argv: readonly string[]): string {
  return defaultPlanner().renderArgv(shell, argv);
}
