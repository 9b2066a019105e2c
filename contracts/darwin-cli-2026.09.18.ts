import type { QualificationEvidence } from '../src/shell/contract.js';
import { freezeEvidence } from '../src/shell/evidence.js';
import { DarwinUserShell20260918 } from '../src/shell/ids.js';
import { PosixSingleQuoteContract } from './posix-single-quote.js';

// What the Darwin CLI run showed. It qualifies the narrow shell grammar only; the seed gives no
// run id for it.
const EVIDENCE: QualificationEvidence = freezeEvidence({
  client: 'Cursor CLI',
  version: '2026.09.18-9a7762b',
  platform: 'darwin',
  arch: 'arm64',
  date: '2026-10-10',
  run: null,
  observed: [
    'a genuine stop hook after a request to a loopback provider',
    'exact conversation and generation correlation',
    'argv with spaces and apostrophes arrived unchanged',
    'the CLI returned its neutral stop response and exited normally',
    'run conditions: fresh TEST HOME and workspace, a synthetic token, the file credential store and CI=1',
  ],
  notObserved: [
    'an installed notifications route',
    'access to a cloud provider',
    'any other architecture or version',
    'dollar or backtick tokens, which stay refused',
  ],
  artifacts: [
    {
      name: 'index.js',
      sha256: '19af19274b07dcb8ad9bd86915320b7b49a62de763af10c6857ab45257c8a14b',
    },
  ],
});

/** Cursor CLI 2026.09.18 hooks on Darwin arm64, the same single-quote grammar as Linux. */
export class DarwinCliShellContract extends PosixSingleQuoteContract {
  readonly id = DarwinUserShell20260918;
  readonly evidence = EVIDENCE;
}
