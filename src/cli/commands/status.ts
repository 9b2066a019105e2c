import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, contractFilesOf, contractsOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { hostPathsJSON } from '../file/host-paths.js';
import {
  ACCEPT_METADATA_LOSS_OPTION,
  FILE_OPTIONS,
  filesOf,
  specOf,
  specOptions,
} from '../file/options.js';
import { readCliStatus } from '../file/status-read.js';
import { statusResult, statusText } from '../file/status-result.js';
import { writeJSON } from '../io.js';
import { assertSpecPathsAbsolute } from '../spec-paths.js';

/** `status`: what state the file, the owned entry and the ledger are in; it never writes. */
export const statusCommand: Command = {
  name: 'status',
  summary: 'report the hook file, owned entry, ledger, checks and next safe step',
  description: `Reports the hook file (absent, valid, or refused with a reason), the owned entry (owned,
absent, modified, duplicated, outside stop, remainder drift), the ledger record (generation and
any pending write), the host path checks of the receipted spec (or of --executable and
--selector), the shell contract's evidence, the last stop the host's observer recorded in the
heartbeat file (when install --heartbeat recorded one), the contract file install --contract-file
recorded (found, missing or changed; given no --contract-file, a found one is registered, a
changed one never), and the next safe step. It reads only: nothing is
locked, settled or written. Exit 0 whenever the report was made, whatever it says.`,
  options: {
    ...FILE_OPTIONS,
    ...specOptions(false),
    ...CONTRACT_FILE_OPTION,
    ...ACCEPT_METADATA_LOSS_OPTION,
  },
  output: `a readable report; with --json one object {"hooksFile", "realPath", "file", "owned", "ledger",
  "checkedSpec", "hostPaths", "contract", "contractFile", "locks", "metadata", "nextStep"}, and
  "heartbeat" and "lastStop" when the ledger keeps a heartbeat`,
  async run({ options, json, io }) {
    const { hooksFile, ledger } = filesOf(options);
    const given = specOf(options);
    const { planner } = await contractsOf(options, { hooksFile, ledger });
    assertSpecPathsAbsolute(options, planner);
    const status = await readCliStatus({
      hooksFile,
      ledger,
      planner,
      spec: given,
      shell: options.shell as string | undefined,
      options,
      checkPaths: true,
    });
    const receipt = status.ledger.record?.receipt ?? null;
    // The spec status checked, so checkedSpec and hostPaths always speak of the same one.
    const checked = status.hostPaths;
    const hostPaths = checked === undefined ? null : hostPathsJSON(checked.report, false);
    const shell = (options.shell as string | undefined) ?? receipt?.shell;
    const evidence = planner.contracts().find((contract) => contract.id === shell)?.evidence;
    const contract = shell === undefined ? null : { id: shell, evidence: evidence ?? null };
    const result = statusResult(
      status,
      ledger,
      checked === undefined ? null : { source: checked.source, spec: checked.spec },
      hostPaths,
      contract,
      contractFilesOf(options),
    );
    if (json) writeJSON(io, result);
    else io.stdout(statusText(result));
    return ExitCode.Ok;
  },
};
