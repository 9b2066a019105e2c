import { release } from '../../node/ledger/release.js';
import { blockingFs } from '../../node/write/fs-seam.js';
import type { Command } from '../command.js';
import { contractsOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { failureJSON, failureOf } from '../file/failure.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  FILE_OPTIONS,
  filesOf,
  metadataLossOf,
} from '../file/options.js';
import { refusalStep } from '../file/refusal-step.js';
import { nextStepLines } from '../file/status-result.js';
import { writeJSON } from '../io.js';

const DONE = {
  done: 'ownership ended; the hook file was not touched',
  'no-op': 'nothing was owned or pending for this hook file; nothing changed',
  failed: 'failed: nothing changed',
} as const;

/** `release`: end ownership in the ledger, leaving the hook file exactly as it is. */
export const releaseCommand: Command = {
  name: 'release',
  summary: 'end ownership of the entry in the ledger; the hook file is not touched',
  description: `The way out of a state no other command can prove: the owned entry was edited by hand,
removed alongside other edits, or an interrupted write matches neither its old nor its new state.
Release records in --ledger that this host no longer owns an entry in the hook file, and never
reads or writes the hook file. Afterwards install works again when the command is absent, and
status lists by event and index any entry still running this host's command, for you to keep or
delete. Releasing again is a no-op.`,
  options: { ...FILE_OPTIONS, ...ACCEPT_METADATA_LOSS_OPTION },
  output: `a summary; with --json one object {"status", "hooksFile", "realPath", "released",
  "generation", "error"}; a failure prints it too, then the error on stderr`,
  async run({ options, json, io }) {
    const { hooksFile, ledger } = filesOf(options);
    const outcome = await release({
      hooksFile,
      ledger,
      fs: blockingFs,
      ...metadataLossOf(options),
    });
    const { error } = outcome;
    const nextStep =
      error === undefined
        ? null
        : await refusalStep({
            command: 'release',
            error,
            hooksFile,
            ledger,
            // The contract the ledger keeps for the receipt, so the step is the one status names.
            planner: (await contractsOf(options, { hooksFile, ledger })).planner,
            options,
          });
    const result = {
      status: outcome.status,
      hooksFile: outcome.hooksFile,
      realPath: outcome.realPath ?? null,
      released: outcome.released,
      generation: outcome.generation,
      error: error === undefined ? null : failureJSON(error),
      nextStep,
    };
    if (json) writeJSON(io, result);
    else {
      const lines = [`release: ${DONE[outcome.status]}`, `hooks file: ${hooksFile}`];
      lines.push(`ledger: ${ledger}, generation ${outcome.generation}`);
      if (outcome.status === 'done') {
        lines.push('run status to see any entry still running this host command');
      }
      io.stdout(`${[...lines, ...nextStepLines(nextStep)].join('\n')}\n`);
    }
    if (error !== undefined) throw failureOf(error);
    return ExitCode.Ok;
  },
};
