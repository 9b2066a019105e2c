// The Node host kit, `cursorhooks/node` (SPEC §11): everything a Node host would otherwise write
// by hand around the pure planner. The planner never imports this folder.
import 'reflect-metadata';

export {
  compareAndSwap,
  type Expected,
  type WriteOptions,
  writeHookFile,
} from './cas-write.js';
export {
  type DiagnoseOptions,
  type Diagnosis,
  diagnoseHooks,
  type OwnedKnowledge,
  type SourceReport,
} from './doctor/diagnose.js';
export { enterpriseHooksPath, type SourceLocations } from './doctor/sources.js';
export { FileChangedError, HostIOError, LedgerError } from './errors.js';
export { ExecutableUnverifiedError } from './executable-unverified.js';
export { decidePending, type PendingResolution } from './fence.js';
export type { OpenFile } from './fs-seam.js';
export { type FsSeam, nodeFs } from './fs-seam.js';
export { removeSideFilesOnInterrupt } from './interrupt.js';
export {
  LEDGER_VERSION,
  type LedgerRecord,
  type LedgerSnapshot,
  type PendingRecord,
  type RemovalRecord,
  readLedger,
  updateLedgerRecord,
} from './ledger.js';
export { defaultHooksPath } from './locate.js';
export { inspectLock, type LockInspection, type LockOptions, withLock } from './lock.js';
export { type MetadataCheck, metadataCheck } from './metadata.js';
export {
  checkHostPaths,
  MAX_SELECTOR_BYTES,
  type PathCheckName,
  type PathCheckOptions,
} from './path-checks.js';
export type {
  CheckStatus,
  HostPathCheck,
  HostPathChecker,
  HostPathReport,
  PathRole,
} from './path-report.js';
export {
  type InvocationReport,
  ProbeArgvMismatchError,
  type TokenComparison,
} from './qualify/argv-report.js';
export {
  cancelQualification,
  type FinishOutcome,
  type FinishQualificationOptions,
  finishQualification,
  type ProbeView,
  type QualifyOptions,
  type QualifyOutcome,
  type StartOutcome,
  type StartQualificationOptions,
  startQualification,
} from './qualify/probe.js';
export {
  type ProbeInvocation,
  recordProbeInvocation,
} from './qualify/recording.js';
export {
  QUALIFY_STEP_SENTENCES,
  type QualificationStatus,
  type QualifyStep,
  qualificationStatus,
} from './qualify/status.js';
export {
  type FileSnapshot,
  type ReadOptions,
  readFileSnapshot as readHookFile,
  resolveTarget,
} from './read.js';
export { type ReleaseOptions, type ReleaseOutcome, release } from './release.js';
export {
  type OperationOptions,
  type OperationOutcome,
  type OperationStatus,
  runOperation,
} from './run-operation.js';
export { trackSideFile } from './side-file-registry.js';
export {
  type FileState,
  type HookStatus,
  NEXT_STEP_SENTENCES,
  type NextStep,
  type OwnedState,
  readStatus,
  type StatusOptions,
} from './status.js';
export { disableHook, enableHook, type ToggleOptions } from './toggle.js';
export { type RetryBounds, windowsRetrying } from './windows-retry.js';
