// qualify status in text: an unsafe state directory is reported with its reason and path, not
// as "nothing in progress" beside a next step that says "fix what the error names".
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../node/support.js';
import { cli } from './support.js';

describe('qualify status on a state directory it refuses', () => {
  // Red before: the text said "qualify: nothing in progress" and never named the error.
  it('prints the error with its reason and path, as text, and exits 0', async () => {
    const stateDir = join(tempDir(), 'qualify');
    mkdirSync(stateDir);
    chmodSync(stateDir, 0o755);
    const run = await cli(['qualify', 'status', '--state-dir', stateDir]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('nothing in progress');
    expect(run.stdout).toMatch(/^qualify: state not readable\nerror: .*\[state-dir-unsafe\]$/m);
    expect(run.stdout).toContain(stateDir);
  });
});
