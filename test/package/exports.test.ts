// The package's public entry points, fixed: the "exports" map of package.json, the schemas it
// ships, and every name each entry exports with what it declares. A moved or renamed source file
// must leave all of this unchanged (red: an entry loses, gains or changes an export, an entry's
// types point at another file, or a schema goes missing).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENTRY_SOURCES, OBSERVER_COMMONJS_TYPES, publicExports } from './exports.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const EXPORTS: Record<keyof typeof ENTRY_SOURCES, readonly string[]> = {
  '.': [
    'AbsenceUnprovenError: class',
    'AdviceOptions: interface',
    'ConflictError: class',
    'CursorHooksError: class',
    'DarwinUserShell20260918: const',
    'DocumentPosition: interface',
    'ErrorReason: type',
    'FINDING_SENTENCES: const',
    'Finding: interface',
    'FindingCode: type',
    'GrammarFamily: interface',
    'GrammarFamilyId: type',
    'HookPlanner: class',
    'HookSource: type',
    'HookSpec: interface',
    'LinuxUserShell32212: const',
    'MAX_ARGS: const',
    'MAX_ARGV_BYTES: const',
    'MAX_DEPTH: const',
    'MAX_DOCUMENT_BYTES: const',
    'MAX_NODES: const',
    'MAX_STOP_PAYLOAD_BYTES: const',
    'MAX_TOKEN_BYTES: const',
    'Operation: const',
    'PathRole: type',
    'PlanRequest: interface',
    'PlanResult: interface',
    'QualificationEvidence: interface',
    'QualificationRecord: interface',
    'Receipt: class',
    'ReceiptJSON: interface',
    'RecordedInvocation: interface',
    'SHELL_CONTRACT: const',
    'Severity: type',
    'ShellContract: interface',
    'StopEventCheck: interface',
    'StopEventVerdict: type',
    'UnsupportedError: class',
    'WindowsPowerShellStop20261001: const',
    'WindowsUnqualified: const',
    'adviseHooks: function',
    'checkStopEvent: function',
    'createPlannerContainer: function',
    'errorIs: function',
    'grammarFamilies: function',
    'plan: function',
    'qualifiedContract: function',
    'renderArgv: function',
    'verifyOwned: function',
  ],
  './node': [
    'CheckStatus: type',
    'ContractFileRecord: interface',
    'DiagnoseOptions: interface',
    'Diagnosis: interface',
    'ExecutableUnverifiedError: class',
    'Expected: type',
    'FileChangedError: class',
    'FileSnapshot: interface',
    'FileState: type',
    'FinishOutcome: interface',
    'FinishQualificationOptions: interface',
    'FsSeam: interface',
    'HeartbeatPathError: class',
    'HookStatus: interface',
    'HostIOError: class',
    'HostPathCheck: interface',
    'HostPathChecker: type',
    'HostPathReport: interface',
    'InvocationReport: interface',
    'LEDGER_VERSION: const',
    'LedgerError: class',
    'LedgerRecord: interface',
    'LedgerSnapshot: interface',
    'LockInspection: interface',
    'LockOptions: interface',
    'MAX_SELECTOR_BYTES: const',
    'MetadataCheck: type',
    'NEXT_STEP_SENTENCES: const',
    'NextStep: type',
    'OpenFile: interface',
    'OperationCommand: type',
    'OperationOptions: interface',
    'OperationOutcome: interface',
    'OperationStatus: type',
    'OwnedKnowledge: type',
    'OwnedState: type',
    'PathCheckName: type',
    'PathCheckOptions: interface',
    'PathRole: type',
    'PendingRecord: interface',
    'PendingResolution: type',
    'ProbeArgvMismatchError: class',
    'ProbeInvocation: interface',
    'ProbeView: interface',
    'QUALIFY_STEP_SENTENCES: const',
    'QualificationStatus: interface',
    'QualifyOptions: interface',
    'QualifyOutcome: interface',
    'QualifyStep: type',
    'ReadOptions: interface',
    'ReleaseOptions: interface',
    'ReleaseOutcome: interface',
    'RemovalRecord: interface',
    'RetryBounds: interface',
    'SourceLocations: interface',
    'SourceReport: interface',
    'StartOutcome: interface',
    'StartQualificationOptions: interface',
    'StatusOptions: interface',
    'ToggleOptions: type',
    'TokenComparison: interface',
    'WriteOptions: interface',
    'cancelQualification: function',
    'checkHostPaths: const',
    'compareAndSwap: function',
    'decidePending: function',
    'defaultHooksPath: function',
    'diagnoseHooks: function',
    'disableHook: function',
    'enableHook: function',
    'enterpriseHooksPath: function',
    'finishQualification: function',
    'inspectLock: function',
    'metadataCheck: function',
    'nodeFs: const',
    'qualificationStatus: function',
    'readHookFile: function',
    'readLedger: function',
    'readStatus: function',
    'recordProbeInvocation: function',
    'release: function',
    'removeSideFilesOnInterrupt: function',
    'resolveTarget: function',
    'runOperation: function',
    'startQualification: function',
    'trackSideFile: function',
    'updateLedgerRecord: function',
    'windowsRetrying: function',
    'withLock: function',
    'writeHookFile: function',
  ],
  './observer': [
    'Heartbeat: interface',
    'LastStop: interface',
    'MAX_STOP_PAYLOAD_BYTES: const',
    'ObserverContract: type',
    'ReadStopEventOptions: interface',
    'SimulationMark: type',
    'StopEvent: interface',
    'StopEventCheck: interface',
    'StopEventRead: interface',
    'StopEventVerdict: type',
    'StopObserverOptions: interface',
    'StopPayloadProblem: type',
    'StopReadProblem: type',
    'StopStatus: type',
    'checkStopEvent: function',
    'readStopEvent: function',
    'runStopObserver: function',
  ],
};

const SCHEMAS = [
  'contracts-result.json',
  'doctor-result.json',
  'error.json',
  'heartbeat.json',
  'help-result.json',
  'hook-spec.json',
  'operation-result.json',
  'plan-request.json',
  'plan-result.json',
  'qualification-record.json',
  'qualify-result.json',
  'receipt.json',
  'release-result.json',
  'render-argv-result.json',
  'simulate-stop-result.json',
  'status-result.json',
  'verify-request.json',
  'verify-result.json',
  'version-result.json',
];

describe('the public entry points', () => {
  const manifest = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
    exports: Record<string, unknown>;
  };

  it('are the package.json exports cursorhooks, /node, /observer, /schemas/*, /package.json (red: an entry is added, dropped or renamed)', () => {
    expect(Object.keys(manifest.exports)).toEqual([
      '.',
      './node',
      './observer',
      './schemas/*',
      './package.json',
    ]);
  });

  it("take their types from the same sources (red: an entry's types point at a moved or other file)", () => {
    for (const [entry, source] of Object.entries(ENTRY_SOURCES)) {
      // ./observer has a condition per module format; its ES types are the entry's own.
      const conditions = manifest.exports[entry] as { types?: string; import?: { types: string } };
      const types = conditions.types ?? conditions.import?.types;
      expect(types).toBe(`./dist/${source.replace(/\.ts$/, '.d.ts')}`);
    }
  });

  it("give ./observer's CommonJS types every name of its ES types, values as values and types as types (red: the hand-written .d.cts lacks or adds an export, or declares a value as a type)", () => {
    const commonJs = publicExports(ROOT, { require: OBSERVER_COMMONJS_TYPES }).require ?? [];
    // Declared as `const X: typeof observer.X` and `type X = observer.X`: the kinds differ in name.
    const asDeclared = EXPORTS['./observer'].map((line) =>
      line.replace(/: (function|const)$/, ': const').replace(/: (interface|type)$/, ': type'),
    );
    expect(commonJs).toEqual(asDeclared);
  });

  it('export exactly these names, each declaring what it did (red: a name is lost, added, or turns from a class, function, const or type into another)', () => {
    expect(publicExports(ROOT)).toEqual(EXPORTS);
  });

  it('export at run time exactly the value names above (red: a value export is only a type, or a type leaks as a value)', async () => {
    for (const [entry, source] of Object.entries(ENTRY_SOURCES)) {
      const loaded = (await import(`${ROOT}${source}`)) as Record<string, unknown>;
      const values = EXPORTS[entry as keyof typeof EXPORTS]
        .filter((line) => /: (class|function|const|enum)$/.test(line))
        .map((line) => line.slice(0, line.indexOf(':')));
      expect(Object.keys(loaded).sort()).toEqual(values);
    }
  });

  it('ship these schemas (red: a schema under schemas/ is removed or renamed)', () => {
    expect(readdirSync(`${ROOT}schemas`).sort()).toEqual(SCHEMAS);
  });
});
