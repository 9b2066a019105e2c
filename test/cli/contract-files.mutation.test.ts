// --contract-file given twice with one record: the planner refuses the second registration, and
// the usage error says which option it is about and why.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { record } from '../shell/records.js';
import { cli } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'cursorhooks-contract-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--contract-file', () => {
  it('refuses one record registered twice with the planner`s words after the option`s name (red: the refusal loses its reason or message)', async () => {
    const path = join(dir, 'record.json');
    writeFileSync(path, JSON.stringify(record()));
    const outcome = await cli([
      'contracts',
      '--contract-file',
      path,
      '--contract-file',
      path,
      '--json',
    ]);
    expect(outcome.exitCode).toBe(2);
    const { error } = JSON.parse(outcome.stderr) as {
      error: { kind: string; reason: string; message: string; option: string };
    };
    expect(error.kind).toBe('usage');
    expect(error.option).toBe('--contract-file');
    expect(error.reason).not.toBe('');
    expect(error.message).toMatch(/^option --contract-file: \S/);
  });
});
