// What `status` reports: the kit's readStatus, plus the host path checks of the receipted (or
// given) spec and the shell contract's evidence (schemas/status-result.json).
import type { HookSpec } from '../../domain/hook-spec.js';
import type { PendingResolution } from '../../node/fence.js';
import type { LedgerRecord } from '../../node/ledger.js';
import type { HookStatus } from '../../node/status.js';
import type { QualificationEvidence } from '../../shell/contract.js';
import { type HostPathsJSON, hostPathLines } from './host-paths.js';

export interface StatusResultJSON {
  readonly hooksFile: string;
  readonly realPath: string | null;
  readonly file: { readonly state: string; readonly reason: string | null };
  readonly owned: {
    readonly state: string;
    readonly repairable: boolean;
    readonly reason: string | null;
  };
  readonly ledger: {
    readonly path: string;
    readonly state: string;
    readonly reason: string | null;
    readonly record: LedgerRecord | null;
    readonly generation: number;
    readonly pending: PendingResolution | null;
  };
  /** Whose paths were checked: the spec given on the command line, or the receipted one. */
  readonly checkedSpec: { readonly source: 'given' | 'receipt'; readonly spec: HookSpec } | null;
  readonly hostPaths: HostPathsJSON | null;
  /** The contract the given or receipted shell id names; evidence null when none is registered. */
  readonly contract: {
    readonly id: string;
    readonly evidence: QualificationEvidence | null;
  } | null;
  readonly nextStep: { readonly code: string; readonly sentence: string };
}

export function statusResult(
  status: HookStatus,
  ledgerPath: string,
  checked: StatusResultJSON['checkedSpec'],
  hostPaths: HostPathsJSON | null,
  contract: StatusResultJSON['contract'],
): StatusResultJSON {
  const { file, owned, ledger } = status;
  return {
    hooksFile: status.hooksFile,
    realPath: status.realPath ?? null,
    file: { state: file.state, reason: file.reason ?? null },
    owned: { state: owned.state, repairable: owned.repairable, reason: owned.reason ?? null },
    ledger: {
      path: ledgerPath,
      state: ledger.state,
      reason: ledger.reason ?? null,
      record: ledger.record ?? null,
      generation: ledger.generation,
      pending: ledger.pending ?? null,
    },
    checkedSpec: checked,
    hostPaths,
    contract,
    nextStep: status.nextStep,
  };
}

const because = (reason: string | null) => (reason === null ? '' : ` (${reason})`);

export function statusText(result: StatusResultJSON): string {
  const { file, owned, ledger, contract } = result;
  const lines = [`hooks file: ${result.hooksFile}`];
  if (result.realPath !== null && result.realPath !== result.hooksFile) {
    lines.push(`  real path: ${result.realPath}`);
  }
  lines.push(`  file: ${file.state}${because(file.reason)}`);
  lines.push(
    `  owned entry: ${owned.state}${because(owned.reason)}${owned.repairable ? ', repairable' : ''}`,
  );
  lines.push(`ledger: ${ledger.path}: ${ledger.state}${because(ledger.reason)}`);
  if (ledger.record !== null) {
    const { receipt, removed, pending } = ledger.record;
    lines.push(
      `  generation ${ledger.generation}; ${receipt === null ? (removed === null ? 'no receipt' : `removed at generation ${removed.generation}`) : `receipt for shell ${receipt.shell}`}`,
    );
    lines.push(
      pending === null
        ? '  no pending write'
        : `  pending ${pending.operation} write: the next run settles it ${ledger.pending ?? 'unknown'}`,
    );
  }
  if (result.checkedSpec !== null && result.hostPaths !== null) {
    const { spec, source } = result.checkedSpec;
    lines.push(
      `checked spec (${source === 'given' ? 'given' : 'receipted'}): ${spec.executable} | ${spec.selector}`,
    );
    lines.push(...hostPathLines(result.hostPaths));
  }
  if (contract !== null) {
    const { evidence } = contract;
    lines.push(
      evidence === null
        ? `contract: ${contract.id}: not registered`
        : `contract: ${contract.id}: qualified on ${evidence.client} ${evidence.version}, ${[evidence.platform, evidence.arch].filter((part) => part !== null).join('/')}${evidence.date === null ? '' : `, ${evidence.date}`} (${evidence.observed.length} facts observed, ${evidence.notObserved.length} not observed; see cursorhooks contracts)`,
    );
  }
  lines.push(`next step: ${result.nextStep.code}: ${result.nextStep.sentence}`);
  return `${lines.join('\n')}\n`;
}
