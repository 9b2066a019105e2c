// The public surface (SPEC §2). Everything not exported here is private to the package.
import 'reflect-metadata';

export { type AdviceOptions, adviseHooks } from './advice/advise.js';
export {
  FINDING_SENTENCES,
  type Finding,
  type FindingCode,
  type HookSource,
  type Severity,
} from './advice/findings.js';
export type { HookSpec } from './domain/hook-spec.js';
export { Receipt, type ReceiptJSON } from './domain/receipt.js';
export {
  AbsenceUnprovenError,
  ConflictError,
  CursorHooksError,
  type DocumentPosition,
  errorIs,
  UnsupportedError,
} from './errors/errors.js';
export type { ErrorReason } from './errors/reasons.js';
export {
  MAX_ARGS,
  MAX_ARGV_BYTES,
  MAX_DEPTH,
  MAX_DOCUMENT_BYTES,
  MAX_NODES,
  MAX_TOKEN_BYTES,
} from './limits.js';
export { createPlannerContainer } from './planner/container.js';
export { plan, renderArgv, verifyOwned } from './planner/default.js';
export { HookPlanner } from './planner/hook-planner.js';
export { Operation } from './planner/operation.js';
export type { PlanRequest, PlanResult } from './planner/request.js';
export {
  type PathRole,
  type QualificationEvidence,
  SHELL_CONTRACT,
  type ShellContract,
} from './shell/contract.js';
export {
  type GrammarFamily,
  type GrammarFamilyId,
  grammarFamilies,
} from './shell/families.js';
export {
  DarwinUserShell20260918,
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
  WindowsUnqualified,
} from './shell/ids.js';
export {
  type QualificationRecord,
  qualifiedContract,
  type RecordedInvocation,
} from './shell/qualification-record.js';
export {
  checkStopEvent,
  MAX_STOP_PAYLOAD_BYTES,
  type StopEventCheck,
  type StopEventVerdict,
} from './shell/stop-event.js';
