import type { QualificationEvidence } from '../../shell/contract.js';
import type { Command } from '../command.js';
import { CONTRACT_FILE_OPTION, plannerOf } from '../contract-files.js';
import { ExitCode } from '../exit-codes.js';
import { writeJSON } from '../io.js';

/** `contracts`: the registered shell contracts, in registration order, with their evidence. */
export const contractsCommand: Command = {
  name: 'contracts',
  summary: 'list the registered shell contracts and their evidence',
  description: `Lists the registered shell contracts, each with the evidence that qualified it: the
built-in ones, then each --contract-file.`,
  options: CONTRACT_FILE_OPTION,
  output: 'one paragraph per contract; with --json an array of {"id", "evidence"}',
  async run({ options, json, io }) {
    const contracts = (await plannerOf(options)).contracts();
    if (json) {
      writeJSON(
        io,
        contracts.map(({ id, evidence }) => ({ id, evidence })),
      );
    } else {
      io.stdout(contracts.map(({ id, evidence }) => describe(id, evidence)).join('\n'));
    }
    return ExitCode.Ok;
  },
};

function describe(id: string, evidence: QualificationEvidence): string {
  const where = [evidence.platform, evidence.arch].filter((part) => part !== null).join('/');
  const lines = [
    id,
    `  qualified on: ${evidence.client} ${evidence.version}, ${where}${evidence.date === null ? '' : `, ${evidence.date}`}`,
    ...evidence.observed.map((fact) => `  observed: ${fact}`),
    ...evidence.notObserved.map((fact) => `  not observed: ${fact}`),
  ];
  return `${lines.join('\n')}\n`;
}
