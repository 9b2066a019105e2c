// diagnoseHooks: every source Cursor reads, our receipted command found where it would fire a
// second time, and nothing ever written while it looks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnoseHooks, enterpriseHooksPath } from '../../src/node/index.js';
import { FLAGS } from '../../src/node/write/fs-seam.js';
import { COMMAND } from '../planner/support.js';
import { installedWorkspace, type SeamCall, tempDir, wrapSeam } from './support.js';

const FOREIGN =
  '{\n  "version": 1,\n  "hooks": {\n    "stop": [{ "command": "./audit.sh" }]\n  }\n}\n';

/** An installed user file, a home and a workspace, all in temporary directories. */
async function machine() {
  const where = await installedWorkspace(FOREIGN);
  const home = tempDir();
  const project = tempDir();
  const enterpriseFile = join(tempDir(), 'hooks.json');
  const options = {
    home,
    hooksFile: where.hooks,
    ledger: where.ledger,
    workspaces: [tempDir(), project],
    enterpriseFile,
  };
  return { where, home, project, enterpriseFile, options };
}

function put(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
}

describe('diagnoseHooks', () => {
  it('finds nothing but reads every source in order for a clean installed file (red: a source is skipped or it cries wolf)', async () => {
    const { options, enterpriseFile, home, project } = await machine();
    const diagnosis = await diagnoseHooks(options);
    expect(diagnosis).toMatchObject({
      findings: [],
      worst: null,
      voided: false,
      owned: 'receipted',
    });
    expect(
      diagnosis.sources.map(({ source, workspace, path, state }) => [
        source,
        workspace,
        path,
        state,
      ]),
    ).toEqual([
      ['enterprise', undefined, enterpriseFile, 'absent'],
      ['project', 0, join(options.workspaces[0] as string, '.cursor', 'hooks.json'), 'absent'],
      ['project', 1, join(project, '.cursor', 'hooks.json'), 'absent'],
      ['user', undefined, options.hooksFile, 'read'],
      [
        'claude-project-local',
        0,
        join(options.workspaces[0] as string, '.claude', 'settings.local.json'),
        'absent',
      ],
      ['claude-project-local', 1, join(project, '.claude', 'settings.local.json'), 'absent'],
      [
        'claude-project',
        0,
        join(options.workspaces[0] as string, '.claude', 'settings.json'),
        'absent',
      ],
      ['claude-project', 1, join(project, '.claude', 'settings.json'), 'absent'],
      ['claude-user', undefined, join(home, '.claude', 'settings.json'), 'absent'],
    ]);
  });

  it("finds our command in a project file and in ~/.claude/settings.json's nested Stop as fires-twice (red: a second run goes unseen)", async () => {
    const { options, home, project } = await machine();
    put(join(project, '.cursor', 'hooks.json'), {
      version: 1,
      hooks: { stop: [{ command: './x' }, { command: COMMAND }] },
    });
    put(join(home, '.claude', 'settings.json'), {
      model: 'm',
      hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: COMMAND }] }] },
    });
    const diagnosis = await diagnoseHooks(options);
    expect(diagnosis.findings).toEqual([
      expect.objectContaining({
        code: 'owned-elsewhere',
        severity: 'fires-twice',
        source: 'project',
        workspace: 1,
        event: 'stop',
        eventIndex: 0,
        index: 1,
        ours: true,
      }),
      expect.objectContaining({
        code: 'owned-elsewhere',
        severity: 'fires-twice',
        source: 'claude-user',
        event: 'Stop',
        eventIndex: 0,
        index: 0,
        hook: 0,
        ours: true,
      }),
    ]);
    expect(diagnosis).toMatchObject({ worst: 'fires-twice', voided: false });
  });

  it('finds a foreign command in two sources once, on the lower-ranked one (red: cross-source runs go unseen)', async () => {
    const { options, home, project } = await machine();
    put(join(home, '.claude', 'settings.json'), {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: './audit.sh' }] }] },
    });
    // Another workspace's copy is never in the same window: not reported against workspace 1.
    put(join(project, '.cursor', 'hooks.json'), {
      version: 1,
      hooks: { afterFileEdit: [{ command: './audit.sh' }] },
    });
    const { findings } = await diagnoseHooks(options);
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'command-in-two-sources',
        severity: 'fires-twice',
        source: 'claude-user',
        also: 'user',
        event: 'Stop',
        index: 0,
        hook: 0,
      }),
    ]);
  });

  it('reports our entry deleted from the user file as owned-missing and voided (red: exit 0 while nothing of ours runs)', async () => {
    const { options, where } = await machine();
    writeFileSync(where.hooks, FOREIGN);
    const diagnosis = await diagnoseHooks(options);
    expect(diagnosis.findings).toEqual([
      expect.objectContaining({
        code: 'owned-missing',
        severity: 'voids-entry',
        source: 'user',
        ours: true,
      }),
    ]);
    expect(diagnosis.voided).toBe(true);
  });

  it('reports a source it cannot read by role, and goes on with the others (red: one bad file hides the rest)', async () => {
    const { options, project, home } = await machine();
    mkdirSync(join(project, '.cursor', 'hooks.json'), { recursive: true });
    put(join(home, '.claude', 'settings.json'), '{"hooks": {"Stop": [1]}}');
    const diagnosis = await diagnoseHooks(options);
    expect(
      diagnosis.sources.find((s) => s.source === 'project' && s.workspace === 1),
    ).toMatchObject({ state: 'unreadable', reason: 'file-not-regular' });
    expect(diagnosis.findings.map((f) => [f.code, f.source, f.severity])).toEqual([
      ['source-unreadable', 'project', 'voids-file'],
      ['entry-not-object', 'claude-user', 'voids-file'],
    ]);
    expect(diagnosis.voided).toBe(false);
  });

  it('reports an unknown event in the user file as voiding it, and a ledger it cannot read (red: exit 0 on a build that ignores the file)', async () => {
    const { options, where } = await machine();
    writeFileSync(where.hooks, '{"version":1,"hooks":{"notification":[]}}');
    writeFileSync(where.ledger, 'not json');
    const diagnosis = await diagnoseHooks(options);
    expect(diagnosis).toMatchObject({
      voided: true,
      owned: 'ledger-unreadable',
      worst: 'voids-file',
    });
  });

  it('makes no call that writes, creates, renames, removes or locks (red: doctor is not read-only)', async () => {
    const { options, project, home } = await machine();
    put(join(project, '.cursor', 'hooks.json'), '{"version":1,"hooks":{"stop":[{"command":"a"}]}}');
    put(join(home, '.claude', 'settings.json'), '');
    const calls = new Set<SeamCall>();
    const openFlags = new Set<unknown>();
    const fs = wrapSeam((call, _path, args) => {
      calls.add(call);
      if (call === 'open') openFlags.add(args[1]);
    });
    await diagnoseHooks({ ...options, fs });
    const reading: SeamCall[] = ['open', 'fstat', 'read', 'close', 'realpath', 'lstat', 'readlink'];
    expect([...calls].filter((call) => !reading.includes(call))).toEqual([]);
    expect([...openFlags]).toEqual([FLAGS.read]);
  });

  it("knows Cursor's enterprise file on each platform (red: the machine-wide source is looked for in the wrong place)", () => {
    expect(enterpriseHooksPath('darwin')).toBe('/Library/Application Support/Cursor/hooks.json');
    expect(enterpriseHooksPath('linux')).toBe('/etc/cursor/hooks.json');
    expect(enterpriseHooksPath('win32')).toBe('C:\\ProgramData\\Cursor\\hooks.json');
    expect(enterpriseHooksPath('aix')).toBeUndefined();
  });
});
