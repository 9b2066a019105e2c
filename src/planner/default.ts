import type { Receipt, ReceiptJSON } from '../domain/receipt.js';
import { createPlannerContainer } from './container.js';
import { HookPlanner } from './hook-planner.js';
import type { PlanRequest, PlanResult } from './request.js';

let defaultPlanner: HookPlanner | undefined;

/** The planner of a default container with the built-in contracts, built on first use. */
function planner(): HookPlanner {
  defaultPlanner ??= createPlannerContainer().get(HookPlanner);
  return defaultPlanner;
}

export function plan(request: PlanRequest): PlanResult {
  return planner().plan(request);
}

export function verifyOwned(document: Uint8Array, receipt: Receipt | ReceiptJSON): void {
  planner().verifyOwned(document, receipt);
}

export function renderArgv(shell: string, argv: readonly string[]): string {
  return planner().renderArgv(shell, argv);
}
