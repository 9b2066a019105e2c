// The Node host kit, `cursorhooks/node` (SPEC §11): everything a Node host would otherwise write
// by hand around the pure planner. The planner never imports this folder.
import 'reflect-metadata';

export {
  type DiagnoseOptions,
  type Diagnosis,
  diagnoseHooks,
  type OwnedKnowledge,
  type SourceReport,
} from './doctor/diagnose.js';
export { enterpriseHooksPath, type SourceLocations } from './doctor/sources.js';
export { FileChangedError, HostIOError, LedgerError } from './errors.js';
export { decidePending, type PendingResolution } from './ledger/fence.js';
export {
  type ContractFileRecord,
  LEDGER_VERSION,
  type LedgerRecord,
  type LedgerSnapshot,
  type PendingRecord,
  type RemovalRecord,
  readLedger,
  updateLedgerRecord,
} from './ledger/ledger.js';
export { type ReleaseOptions, type ReleaseOutcome, release } from './ledger/release.js';
export { defaultHooksPath } from './locate.js';
export { inspectLock, type LockInspection, type LockOptions, withLock } from './lock/lock.js';
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
  type OperationCommand,
  type OperationOptions,
  type OperationOutcome,
  type OperationStatus,
  runOperation,
} from './run-operation.js';
export { removeSideFilesOnInterrupt } from './side-files/interrupt.js';
export { trackSideFile } from './side-files/side-file-registry.js';
export { ExecutableUnverifiedError } from './status/executable-unverified.js';
export { HeartbeatPathError } from './status/heartbeat-path.js';
export {
  checkHostPaths,
  MAX_SELECTOR_BYTES,
  type PathCheckName,
  type PathCheckOptions,
} from './status/path-checks.js';
export type {
  CheckStatus,
  HostPathCheck,
  HostPathChecker,
  HostPathReport,
  PathRole,
} from './status/path-report.js';
export {
  type FileState,
  type HookStatus,
  NEXT_STEP_SENTENCES,
  type NextStep,
  type OwnedState,
  readStatus,
  type StatusOptions,
} from './status/status.js';
export { disableHook, enableHook, type ToggleOptions } from './toggle.js';
export {
  compareAndSwap,
  type Expected,
  type WriteOptions,
  writeHookFile,
} from './write/cas-write.js';
export type { OpenFile } from './write/fs-seam.js';
export { type FsSeam, nodeFs } from './write/fs-seam.js';
export { type MetadataCheck, metadataCheck } from './write/metadata.js';
export {
  type FileSnapshot,
  type ReadOptions,
  readFileSnapshot as readHookFile,
  resolveTarget,
} from './write/read.js';
export { type RetryBounds, windowsRetrying } from './write/windows-retry.js';
