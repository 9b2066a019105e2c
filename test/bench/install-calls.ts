// What one real install costs in system calls, counted through the host kit's fs seam (counts,
// not timings: they are exact on any machine). A lock is one link of a staging file to a lock
// name; an fsync is one flush of a file or directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LinuxUserShell32212, Operation } from '../../src/index.js';
import { runOperation } from '../../src/node/run-operation.js';
import { type FsSeam, nodeFs } from '../../src/node/write/fs-seam.js';
import { fixture } from './file-commands.js';
import type { GroupReport } from './report.js';

const COUNTED = ['link', 'fsync', 'open', 'realpath', 'rename', 'readdir', 'lstat'] as const;

function countingSeam(counts: Map<string, number>): FsSeam {
  const seam: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(nodeFs)) {
    seam[name] = (...args: unknown[]) => {
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return (fn as (...a: unknown[]) => unknown)(...args);
    };
  }
  return seam as unknown as FsSeam;
}

export async function installCalls(): Promise<GroupReport> {
  const root = mkdtempSync(join(tmpdir(), 'cursorhooks-bench-calls-'));
  try {
    const { hooks, ledger, hookSpec } = fixture(root, 'home');
    const rows: (string | number)[][] = [];
    for (const label of ['install (writes)', 'install again (no-op)']) {
      const counts = new Map<string, number>();
      const outcome = await runOperation({
        operation: Operation.Install,
        hooksFile: hooks,
        ledger,
        spec: hookSpec,
        shell: LinuxUserShell32212,
        fs: countingSeam(counts),
      });
      if (outcome.error !== undefined) throw outcome.error;
      rows.push([label, ...COUNTED.map((name) => counts.get(name) ?? 0)]);
    }
    return {
      tables: [
        {
          title: '9. System calls of one install through the host kit (counted, not timed)',
          notes: [
            'link = a lock taken (a staging file linked to the lock name); the host path checks',
            'of the executable and selector are outside the seam and not counted',
          ],
          columns: ['run', 'locks (link)', ...COUNTED.slice(1)],
          rows,
        },
      ],
      targets: [],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
