import type { PathRole, QualificationEvidence, ShellContract } from '../src/shell/contract.js';
import { freezeEvidence } from '../src/shell/evidence.js';
import { powershellStop } from '../src/shell/grammars/powershell-stop.js';
import { WindowsPowerShellStop20261001 } from '../src/shell/ids.js';

// What the Windows Actions run showed. It qualifies only the fixed five-token stop command below.
const EVIDENCE: QualificationEvidence = freezeEvidence({
  client: 'Cursor CLI',
  version: '2026.10.01-e373342',
  platform: 'windows',
  arch: 'amd64',
  date: '2026-10-12',
  run: 'native GitHub Actions run 38220319890',
  observed: [
    'a genuine stop hook with exact conversation and generation',
    'argv with spaces and apostrophes arrived unchanged',
    'the stop acknowledgement, exec close and a natural exit 0',
    'no process left in the owned Job Object and no forced cleanup',
  ],
  notObserved: [
    'generic PowerShell argv beyond the fixed five-token stop command',
    'CMD or WSL',
    'any other version or architecture',
    'installed Notifications delivery',
    'a visible toast',
  ],
  artifacts: [
    {
      name: 'official archive (unmodified)',
      sha256: '31896ce9a43f63c8ae7ff3c4bee868213d6d02d60fb49908bef6dc91d582f6ee',
    },
    {
      name: 'index.js',
      sha256: '0e7e28c34e050c6b83fe574e1fefa8d95d7c80bea6c4a4d3ae2726e5191243ef',
    },
  ],
});

/**
 * Cursor CLI 2026.10.01 stop hooks on Windows amd64 through PowerShell: the shell layer's
 * powershell-stop grammar bound to this build's evidence.
 */
export class WindowsPowerShellStopContract implements ShellContract {
  readonly id = WindowsPowerShellStop20261001;
  readonly evidence = EVIDENCE;
  readonly family = 'powershell-stop';

  render(argv: readonly string[]): string {
    return powershellStop.render(argv);
  }

  assertCanonicalPath(path: string, role: PathRole): void {
    powershellStop.assertCanonicalPath(path, role);
  }
}
