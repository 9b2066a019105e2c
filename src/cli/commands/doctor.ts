import { isAbsolute } from 'node:path';
import { addedContracts, diagnoseHooks } from '../../node/doctor/diagnose.js';
import { defaultHooksPath } from '../../node/locate.js';
import { blockingFs } from '../../node/write/fs-seam.js';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, contractsOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { doctorResult, doctorText } from '../file/doctor-output.js';
import { absolute, FILE_OPTIONS } from '../file/options.js';
import { writeJSON } from '../io.js';

/** `doctor`: what Cursor will do with every hook source it reads; it never writes. */
export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'check every hook source Cursor reads, by position only; it never writes',
  description: `Reads every file Cursor takes hooks from, in its order: the machine's enterprise file, each
--workspace's .cursor/hooks.json, the user file, each workspace's .claude/settings.local.json and
.claude/settings.json, and ~/.claude/settings.json. Reports what voids a file or an entry, what fires
twice (the same command in two places, this host's command outside the user file) and advice, each
by source, event and index, never with a value from a file. With --ledger it looks for this host's
receipted command too. It writes nothing and takes no lock. Exit 0 when nothing voids the user file
or this host's entry, 1 otherwise.`,
  options: {
    'hooks-file': FILE_OPTIONS['hooks-file'] as Command['options'][string],
    ledger: {
      type: 'string',
      value: 'PATH',
      help: "the host's receipt ledger, an absolute path: its receipt names this host's command",
    },
    workspace: {
      type: 'string',
      value: 'DIR',
      multiple: true,
      help: 'a workspace folder whose .cursor and .claude files are read, an absolute path; repeatable',
    },
    ...CONTRACT_FILE_OPTION,
  },
  output: `a readable report; with --json one object {"findings", "sources", "worst", "voided", "owned"}`,
  async run({ options, json, io }) {
    const hooksFile = absolute(options, 'hooks-file');
    const ledger = absolute(options, 'ledger');
    const workspaces = (options.workspace as readonly string[] | undefined) ?? [];
    if (!workspaces.every((dir) => isAbsolute(dir))) {
      throw usageError('option-path-relative', 'option --workspace needs an absolute path', {
        option: '--workspace',
      });
    }
    // With a ledger, the contract file it recorded for the receipt counts as given, as for status.
    const recordedIn =
      ledger === undefined ? undefined : { hooksFile: hooksFile ?? defaultHooksPath(), ledger };
    const contracts = addedContracts((await contractsOf(options, recordedIn)).planner);
    const diagnosis = await diagnoseHooks({
      ...(hooksFile === undefined ? {} : { hooksFile }),
      ...(ledger === undefined ? {} : { ledger }),
      workspaces,
      contracts,
      fs: blockingFs,
    });
    if (json) writeJSON(io, doctorResult(diagnosis));
    else io.stdout(doctorText(diagnosis));
    return diagnosis.voided ? ExitCode.Refused : ExitCode.Ok;
  },
};
