// `cursorhooks doctor`: the report as text and JSON (checked against doctor-result.json), its
// exit codes, and our installed command found where it would fire a second time.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../node/support.js';
import { home, install, result, writeHooks } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli, expectUsageError, HOME_STUB_WORKS, useTempHome } from './support.js';

interface DoctorJSON {
  readonly findings: readonly Record<string, unknown>[];
  readonly voided: boolean;
  readonly owned: string;
  readonly worst: string | null;
}

/** Runs doctor with --json, checks its output against the schema and its exit code. */
async function doctor(exitCode: number, ...args: string[]): Promise<DoctorJSON> {
  const outcome = await cli(['doctor', ...args, '--json']);
  expect(outcome.stderr).toBe('');
  expect(outcome.exitCode).toBe(exitCode);
  const parsed = JSON.parse(outcome.stdout) as DoctorJSON;
  expectSchema('doctor-result', parsed);
  return parsed;
}

interface Installed {
  readonly hooks: { readonly stop: readonly { readonly command: string }[] };
}

function put(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

describe.skipIf(!HOME_STUB_WORKS)('cursorhooks doctor', () => {
  const homeDir = useTempHome('cursorhooks-doctor-');

  /** The user file with our entry installed through the CLI, and its ledger. */
  async function installed() {
    const where = home();
    writeHooks(where);
    result(await install(where), 0);
    const document = JSON.parse(readFileSync(where.hooks, 'utf8')) as Installed;
    return { where, command: document.hooks.stop.at(-1)?.command as string };
  }

  it('exits 0 with advice at most on a clean installed file (red: a clean install is reported broken)', async () => {
    const { where } = await installed();
    const report = await doctor(0, '--hooks-file', where.hooks, '--ledger', where.ledger);
    expect(report.findings.filter((f) => f.severity !== 'advice')).toEqual([]);
    expect(report).toMatchObject({ voided: false, owned: 'receipted' });
  });

  it("finds our command in a workspace's project file and ~/.claude/settings.json as fires-twice, exit 0 (red: the double run goes unseen)", async () => {
    const { where, command } = await installed();
    const workspace = tempDir();
    put(join(workspace, '.cursor', 'hooks.json'), { version: 1, hooks: { stop: [{ command }] } });
    put(join(homeDir(), '.claude', 'settings.json'), {
      hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command }] }] },
    });
    const args = ['--hooks-file', where.hooks, '--ledger', where.ledger, '--workspace', workspace];
    const report = await doctor(0, ...args);
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: 'owned-elsewhere',
        severity: 'fires-twice',
        source: 'project',
        workspace: 0,
        event: 'stop',
        index: 0,
      }),
      expect.objectContaining({
        code: 'owned-elsewhere',
        severity: 'fires-twice',
        source: 'claude-user',
        event: 'Stop',
        index: 0,
        hook: 0,
      }),
    ]);
    const text = await cli(['doctor', ...args]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain(
      'fires-twice owned-elsewhere in project (workspace 0): event stop (member 0), entry 0, our entry',
    );
    expect(text.stdout).not.toContain(command);
  });

  it('exits 1 and still prints the report when the user file is voided (red: a voided file passes)', async () => {
    const where = home();
    writeFileSync(where.hooks, '{"version": 1, "hooks": {"stop": [],}}');
    const report = await doctor(1, '--hooks-file', where.hooks);
    expect(report.findings).toEqual([
      expect.objectContaining({ code: 'not-json', source: 'user', line: 1, column: 36 }),
    ]);
    expect(report).toMatchObject({ voided: true, worst: 'voids-file', owned: 'none' });
  });

  it('exits 1 when our receipted entry was deleted from the user file (red: nothing of ours runs, yet exit 0)', async () => {
    const { where } = await installed();
    writeHooks(where);
    const report = await doctor(1, '--hooks-file', where.hooks, '--ledger', where.ledger);
    expect(report.findings).toEqual([
      expect.objectContaining({ code: 'owned-missing', ours: true }),
    ]);
  });

  it.each([
    [['--workspace', 'relative/dir'], '--workspace'],
    [['--ledger', 'ledger.json'], '--ledger'],
    [['--hooks-file', 'hooks.json'], '--hooks-file'],
  ])(
    'refuses %j as usage, exit 2 (red: a relative path is read from the working directory)',
    async (args, option) => {
      expectUsageError(await cli(['doctor', ...args, '--json']), 'option-path-relative', {
        option,
      });
    },
  );
});
