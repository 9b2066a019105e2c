// The four file-level operations share one shape: plan, write and record through the kit's
// runOperation, report the outcome, exit by its kind.

import { runOperation } from '../../node/run-operation.js';
import { blockingFs } from '../../node/write/fs-seam.js';
import type { Operation } from '../../planner/operation.js';
import type { Command, OptionDeclarations } from '../command.js';
import { CONTRACT_FILE_OPTION, contractsOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { writeJSON } from '../io.js';
import { assertSpecPathsAbsolute } from '../spec-paths.js';
import { failureOf } from './failure.js';
import { HostPathRun } from './host-paths.js';
import { operationResult, operationText } from './operation-result.js';
import { absolute, filesOf, metadataLossOf, shellOf, specOf } from './options.js';
import { refusalStep } from './refusal-step.js';

export interface OperationCommandDeclaration {
  readonly operation: Operation;
  /** The command's name when it is not the operation's (disable, enable). */
  readonly name?: string;
  /** What the run is for beyond its operation (the kit's `intent`). */
  readonly intent?: 'disable' | 'enable';
  readonly summary: string;
  readonly description: string;
  readonly options: OptionDeclarations;
}

const OUTPUT = `a summary and the unified diff; with --json one object {"status", "command", "operation",
  "dryRun", "hooksFile", "realPath", "changed", "receipt", "generation", "settled", "hostPaths",
  "metadata", "diff", "error", "nextStep"}; "command" is the command run, "operation" the
  lifecycle operation it ran (remove for disable, install for enable).
  A refusal or failure prints this result too (status refused or failed, error set), then the
  error on stderr as every command does.`;

export function operationCommand(declaration: OperationCommandDeclaration): Command {
  const { operation, intent } = declaration;
  return {
    name: declaration.name ?? operation,
    summary: declaration.summary,
    description: declaration.description,
    options: { ...declaration.options, ...CONTRACT_FILE_OPTION },
    output: OUTPUT,
    async run({ options, json, io }) {
      const { hooksFile, ledger } = filesOf(options);
      const spec = specOf(options);
      const { planner, used } = await contractsOf(options, { hooksFile, ledger });
      assertSpecPathsAbsolute(options, planner);
      const shell = shellOf(
        options,
        planner.contracts().map((contract) => contract.id),
      );
      // The record of the shell chosen; without --shell (the receipt's), a lone record is the
      // candidate, and the kit records it only when its id is the receipt's shell.
      const contractFile =
        shell === undefined
          ? used.length === 1
            ? used[0]
            : undefined
          : used.find((record) => record.id === shell);
      const heartbeat = absolute(options, 'heartbeat');
      const dryRun = options['dry-run'] === true;
      const hostPaths = new HostPathRun(options['vouch-unperformed-checks'] === true);
      const outcome = await runOperation({
        operation,
        hooksFile,
        ledger,
        ...(spec === undefined ? {} : { spec }),
        ...(shell === undefined ? {} : { shell }),
        ...(heartbeat === undefined ? {} : { heartbeat }),
        ...(contractFile === undefined ? {} : { contractFile }),
        ...(intent === undefined ? {} : { intent }),
        dryRun,
        checkHostPaths: hostPaths.checker,
        planner,
        fs: blockingFs,
        ...metadataLossOf(options),
      });
      const { error } = outcome;
      const nextStep =
        error === undefined
          ? null
          : await refusalStep({
              command: outcome.command,
              error,
              hooksFile,
              ledger,
              planner,
              ...(spec === undefined ? {} : { spec }),
              ...(shell === undefined ? {} : { shell }),
              options,
            });
      const result = await operationResult(outcome, hostPaths.json(), dryRun, nextStep);
      if (json) writeJSON(io, result);
      else io.stdout(operationText(result, ledger));
      if (error !== undefined) throw failureOf(error);
      return ExitCode.Ok;
    },
  };
}
