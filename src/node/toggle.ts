// The user's "off" kept: `disable` takes the owned entry out and records that the user wants it
// off, with the receipt, so nothing (install, update, repair) puts it back until `enable`
// installs that very spec and contract again. Both are ordinary fenced runs: a crash at any
// step settles like any other write.
import { Operation } from '../planner/operation.js';
import { type OperationOptions, type OperationOutcome, runOperation } from './run-operation.js';

/** What disable and enable take: the files and the kit's knobs, never a spec (the ledger has it). */
export type ToggleOptions = Omit<OperationOptions, 'operation' | 'spec' | 'shell' | 'intent'>;

/**
 * Removes the owned entry and records the user's "off". Also when the entry is gone already
 * (removed before, or deleted by hand): then only the ledger changes. Disabling again is a no-op.
 */
export function disableHook(options: ToggleOptions): Promise<OperationOutcome> {
  return runOperation({ ...options, operation: Operation.Remove, intent: 'disable' });
}

/**
 * Installs again the spec and contract that disable recorded, ending the "off"; a no-op when
 * the entry is owned and intact, refused `not-disabled` when nothing was turned off.
 */
export function enableHook(options: ToggleOptions): Promise<OperationOutcome> {
  return runOperation({ ...options, operation: Operation.Install, intent: 'enable' });
}
