import type { QualificationEvidence } from '../src/shell/contract.js';
import { freezeEvidence } from '../src/shell/evidence.js';
import { LinuxUserShell32212 } from '../src/shell/ids.js';
import { PosixSingleQuoteContract } from './posix-single-quote.js';

// What the supplied Linux spike showed, and what it left open. The seed records no architecture,
// date, run id or artifact hash for it, so those stay null or empty rather than guessed.
const EVIDENCE: QualificationEvidence = freezeEvidence({
  client: 'Cursor IDE',
  version: '3.22.12',
  platform: 'linux',
  arch: null,
  date: null,
  run: null,
  observed: [
    'the workspaceOpen hook fired',
    'the user hook file was discovered from the configuration',
    'ordinary adversarial argv tokens arrived unchanged',
    'hooks ran with the TEST HOME/.cursor directory as working directory',
    'the pinned hook service source passes user commands to executeHookDirect with a separately built native environment; plugin-root replacement appears only in the claude-plugin branch',
  ],
  notObserved: [
    'a native stop event',
    'a model session',
    'CLI hooks',
    'Notifications delivery',
    'a client restart',
    'any other platform or version',
    'the complete backend preprocessing source: the pinned bundle could not be fetched, so dollar-like forms stay refused even though the spike recorded one dollar literal unchanged',
  ],
  artifacts: [],
});

/** Cursor IDE 3.22.12 user hooks on Linux, single-quote grammar. */
export class LinuxUserShellContract extends PosixSingleQuoteContract {
  readonly id = LinuxUserShell32212;
  readonly evidence = EVIDENCE;
}
