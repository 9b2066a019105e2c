// A --contract-file is read bounded: a device, a FIFO or a huge file is refused at once, naming
// the option and the path, without reading it or waiting for a writer that never comes.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../demo/cli-process.js';
import { tempDir } from '../node/support.js';

const ROOT = new URL('../../', import.meta.url);

beforeAll(() => {
  execFileSync('npm', ['run', '--silent', 'build:cli'], { cwd: ROOT, stdio: 'pipe' });
}, 120_000);

/** The built CLI's `contracts --contract-file path --json`, killed if it is still running at 30 s. */
function contracts(path: string) {
  const run = spawnSync(
    process.execPath,
    [BUILT_CLI, 'contracts', '--contract-file', path, '--json'],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  return { status: run.status, signal: run.signal, stderr: run.stderr };
}

describe('--contract-file of something that is not a record-sized regular file', () => {
  it.each([
    [
      '/dev/zero (red: read until memory runs out, then a crash)',
      () => '/dev/zero',
      'contract-file-not-regular',
    ],
    [
      'a FIFO nobody writes (red: the CLI waits forever)',
      () => {
        const fifo = join(tempDir(), 'record.fifo');
        execFileSync('mkfifo', [fifo]);
        return fifo;
      },
      'contract-file-not-regular',
    ],
    [
      'a sparse 64 MiB file (red: the whole file is read before the size is checked)',
      () => {
        const huge = join(tempDir(), 'huge.json');
        execFileSync('truncate', ['-s', '64M', huge]);
        return huge;
      },
      'contract-file-too-large',
    ],
  ])('refuses %s as a usage error naming the option and the path', (_, make, reason) => {
    const path = make();
    const run = contracts(path);
    expect(run.signal).toBeNull();
    expect(run.status, run.stderr).toBe(2);
    expect(JSON.parse(run.stderr).error).toMatchObject({ reason, option: '--contract-file', path });
  });
});
