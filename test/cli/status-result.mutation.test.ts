// What `status` reports, built straight from a HookStatus the test writes field by field: every
// field of the JSON result and every line of the readable summary, word for word, so a dropped
// field, a swapped branch or a changed word in src/cli/file/status-result.ts shows.
import { describe, expect, it, vi } from 'vitest';
import type { HostPathsJSON } from '../../src/cli/file/host-paths.js';
import { type StatusResultJSON, statusResult } from '../../src/cli/file/status-result.js';
import type { HookStatus } from '../../src/node/status/status.js';
import type { QualificationEvidence } from '../../src/shell/contract.js';
import { SAMPLE_RECEIPT } from './support.js';

/** A status with nothing to report: absent file, no ledger, no locks, metadata checked. */
function status(edit: Partial<{ -readonly [K in keyof HookStatus]: HookStatus[K] }> = {}) {
  const plain: HookStatus = {
    hooksFile: '/home/u/.cursor/hooks.json',
    realPath: undefined,
    file: { state: 'absent', reason: undefined, role: undefined, path: undefined, at: undefined },
    owned: { state: 'not-installed', repairable: false, reason: undefined, unowned: [] },
    ledger: {
      state: 'absent',
      reason: undefined,
      role: undefined,
      path: undefined,
      realPath: undefined,
      record: undefined,
      generation: 0,
      pending: undefined,
    },
    locks: [],
    metadata: { performed: true, writes: 'preserve' },
    contractFile: null,
    doctor: { findings: 0, worst: null, pointsAtDoctor: false },
    nextStep: { code: 'none', command: null, with: null, sentence: 'nothing to do' },
  };
  return { ...plain, ...edit } as HookStatus;
}

const LEDGER = '/home/u/ledger.json';

const EVIDENCE: QualificationEvidence = {
  client: 'cursor-agent',
  version: '2025.10',
  platform: 'linux',
  arch: 'x64',
  date: '2025-10-01',
  run: null,
  observed: ['a', 'b', 'c'],
  notObserved: ['d'],
  artifacts: [],
};

describe('statusResult', () => {
  // Red: a field dropped, renamed or not mapped from undefined to null.
  it('maps a plain status to nulls and empty lists, metadata checked', () => {
    expect(statusResult(status(), LEDGER, null, null, null)).toEqual({
      hooksFile: '/home/u/.cursor/hooks.json',
      realPath: null,
      file: { state: 'absent', reason: null, at: null, refused: null },
      owned: { state: 'not-installed', repairable: false, reason: null, unowned: [] },
      ledger: {
        path: LEDGER,
        state: 'absent',
        reason: null,
        refused: null,
        record: null,
        generation: 0,
        pending: null,
      },
      checkedSpec: null,
      hostPaths: null,
      contract: null,
      contractFile: null,
      locks: [],
      metadata: { checked: true, why: null, writes: 'preserve' },
      doctor: { findings: 0, worst: null, command: null },
      nextStep: { code: 'none', command: null, sentence: 'nothing to do' },
    } satisfies StatusResultJSON);
  });

  // Red: a set field not carried over, refusedAt ignoring role or path, a lock's holder lost.
  it('carries every set field over', () => {
    const record = {
      generation: 4,
      receipt: SAMPLE_RECEIPT,
      removed: null,
      released: null,
      pending: null,
      heartbeat: null,
      disabled: null,
      contractFile: null,
    };
    const holder = { pid: 42, hostname: 'box', acquiredAt: '2026-01-01T00:00:00.000Z' };
    const hostPaths: HostPathsJSON = { verified: true, vouched: false, checks: [] };
    const checked = { source: 'given' as const, spec: SAMPLE_RECEIPT.spec };
    const contract = { id: 'linux-user-3.22.12', evidence: EVIDENCE };
    const result = statusResult(
      status({
        realPath: '/data/hooks.json',
        file: {
          state: 'refused',
          reason: 'json-syntax',
          role: 'hook-file',
          path: '/data/hooks.json',
          at: { offset: 7, line: 2, column: 3 },
        },
        owned: {
          state: 'absent',
          repairable: true,
          reason: 'entry-absent' as never,
          unowned: [{ event: 'stop', index: 1 }],
        },
        ledger: {
          state: 'refused',
          reason: 'ledger-corrupt' as never,
          role: 'ledger',
          path: '/home/u',
          realPath: '/home/u/ledger.json',
          record,
          generation: 4,
          pending: 'forward',
        },
        locks: [
          { role: 'hook-file', path: '/data/hooks.json.lock', state: 'held', holder },
          { role: 'ledger', path: '/home/u/ledger.json.lock', state: 'stale', holder: undefined },
        ],
        metadata: { performed: false, why: 'module-unloadable', writes: 'refuse' },
        doctor: { findings: 3, worst: 'voids-file', pointsAtDoctor: true },
        nextStep: { code: 'repair', command: 'repair', with: null, sentence: 'run repair' },
      }),
      LEDGER,
      checked,
      hostPaths,
      contract,
    );
    expect(result).toEqual({
      hooksFile: '/home/u/.cursor/hooks.json',
      realPath: '/data/hooks.json',
      file: {
        state: 'refused',
        reason: 'json-syntax',
        at: { offset: 7, line: 2, column: 3 },
        refused: { role: 'hook-file', path: '/data/hooks.json' },
      },
      owned: {
        state: 'absent',
        repairable: true,
        reason: 'entry-absent',
        unowned: [{ event: 'stop', index: 1 }],
      },
      ledger: {
        path: LEDGER,
        state: 'refused',
        reason: 'ledger-corrupt',
        refused: { role: 'ledger', path: '/home/u' },
        record,
        generation: 4,
        pending: 'forward',
      },
      checkedSpec: checked,
      hostPaths,
      contract,
      contractFile: null,
      locks: [
        { role: 'hook-file', path: '/data/hooks.json.lock', state: 'held', holder },
        { role: 'ledger', path: '/home/u/ledger.json.lock', state: 'stale', holder: null },
      ],
      metadata: { checked: false, why: 'module-unloadable', writes: 'refuse' },
      doctor: {
        findings: 3,
        worst: 'voids-file',
        command: `cursorhooks doctor --hooks-file /home/u/.cursor/hooks.json --ledger ${LEDGER}`,
      },
      nextStep: {
        code: 'repair',
        command: `cursorhooks repair --hooks-file /home/u/.cursor/hooks.json --ledger ${LEDGER}`,
        sentence: 'run repair',
      },
    } satisfies StatusResultJSON);
  });

  // Red: refusedAt naming a refusal when only one of role and path is known (|| turned &&).
  it('names no refused path unless both role and path are known', () => {
    const onlyRole = statusResult(
      status({
        file: { state: 'refused', reason: 'io', role: 'hook-file', path: undefined, at: undefined },
        ledger: {
          ...status().ledger,
          state: 'refused',
          role: undefined,
          path: '/home/u/ledger.json',
        },
      } as never),
      LEDGER,
      null,
      null,
      null,
    );
    expect(onlyRole.file.refused).toBeNull();
    expect(onlyRole.ledger.refused).toBeNull();
  });

  // Red: the next command without the known spec and shell, or words quoted wrongly for a shell.
  it('writes the next command with the known spec and shell, quoted for a POSIX shell', () => {
    const result = statusResult(
      status({
        hooksFile: "/home/o'neil/my hooks.json",
        nextStep: {
          code: 'install',
          command: 'install',
          with: {
            spec: { executable: '/opt/A-z_0.9/a+b=c@d%e:f', selector: '/etc/a b.json' },
            shell: 'linux-user-3.22.12',
          },
          sentence: 'run install',
        },
      }),
      '/home/u/ledger.json',
      null,
      null,
      null,
    );
    expect(result.nextStep.command).toBe(
      [
        'cursorhooks install',
        `--hooks-file '/home/o'"'"'neil/my hooks.json'`,
        '--ledger /home/u/ledger.json',
        '--executable /opt/A-z_0.9/a+b=c@d%e:f',
        "--selector '/etc/a b.json'",
        '--shell linux-user-3.22.12',
      ].join(' '),
    );
  });

  // Red: the quoting pattern losing an anchor, its repetition or a character of its class.
  it.each([
    ['plain', 'plain'],
    ['a b', "'a b'"],
    [' a', "' a'"],
    ['a ', "'a '"],
    ['', "''"],
    ['x', 'x'],
    ['ab', 'ab'],
    ['Z9', 'Z9'],
    ['a$b', "'a$b'"],
    ['a*', "'a*'"],
    ['a\nb', "'a\nb'"],
    ['a,b', "'a,b'"],
    ["'", `''"'"''`],
    ["a''b", `'a'"'"''"'"'b'`],
  ])('quotes the word %j as %s', (word, quoted) => {
    const result = statusResult(
      status({
        hooksFile: word,
        nextStep: { code: 'release', command: 'release', with: null, sentence: 's' },
      }),
      'L',
      null,
      null,
      null,
    );
    expect(result.nextStep.command).toBe(`cursorhooks release --hooks-file ${quoted} --ledger L`);
  });
});

/**
 * The summary of `status` as `statusResult` reports it, from a fresh copy of the module: its
 * small formatting helpers are module-level constants.
 */
async function text(
  edit: Parameters<typeof status>[0],
  checked: StatusResultJSON['checkedSpec'] = null,
  hostPaths: HostPathsJSON | null = null,
  contract: StatusResultJSON['contract'] = null,
): Promise<string> {
  vi.resetModules();
  const module = await import('../../src/cli/file/status-result.js');
  return module.statusText(module.statusResult(status(edit), LEDGER, checked, hostPaths, contract));
}

describe('statusText', async () => {
  // Red: a line added, dropped or reworded for the plainest status.
  it('says only the file, the entry, the ledger and the next step when nothing else is known', async () => {
    expect(await text({})).toBe(
      [
        'hooks file: /home/u/.cursor/hooks.json',
        '  file: absent',
        '  owned entry: not-installed',
        `ledger: ${LEDGER}: absent`,
        'next step: none: nothing to do',
        '',
      ].join('\n'),
    );
  });

  // Red: the real path shown when it is the hook file itself, or hidden when it differs.
  it('shows the real path only when it differs from the hook file', async () => {
    expect(await text({ realPath: '/home/u/.cursor/hooks.json' })).not.toContain('real path');
    expect(await text({ realPath: '/data/hooks.json' })).toContain(
      'hooks file: /home/u/.cursor/hooks.json\n  real path: /data/hooks.json\n  file: absent\n',
    );
  });

  // Red: the reason, the position or the refused path dropped or reworded.
  it('says why and where the file and the ledger were refused', async () => {
    expect(
      await text({
        file: {
          state: 'refused',
          reason: 'json-syntax',
          role: 'hook-file',
          path: '/data',
          at: { offset: 17, line: 2, column: 5 },
        },
        owned: {
          state: 'unknown',
          repairable: true,
          reason: 'file-refused' as never,
          unowned: [
            { event: 'stop', index: 2 },
            { event: 'afterFileEdit', index: 0 },
          ],
        },
        ledger: {
          ...status().ledger,
          state: 'refused',
          reason: 'ledger-corrupt' as never,
          role: 'ledger-dir' as never,
          path: '/home/u',
        },
      }),
    ).toBe(
      [
        'hooks file: /home/u/.cursor/hooks.json',
        '  file: refused (json-syntax) at line 2, column 5 (byte 17); the hook-file path refused: /data',
        '  owned entry: unknown (file-refused), repairable',
        "  unowned entry running this host's command: hooks.stop[2]",
        "  unowned entry running this host's command: hooks.afterFileEdit[0]",
        `ledger: ${LEDGER}: refused (ledger-corrupt); the ledger-dir path refused: /home/u`,
        'next step: none: nothing to do',
        '',
      ].join('\n'),
    );
  });

  // Red: the ledger record's lines wrong for a receipt, a removal, none, or a pending write.
  it.each([
    [
      'a receipt, no pending write',
      { receipt: SAMPLE_RECEIPT, removed: null, pending: null },
      undefined,
      ['  generation 3; receipt for shell linux-user-3.22.12', '  no pending write'],
    ],
    [
      'a removal, a pending install settled forward',
      {
        receipt: null,
        removed: { generation: 2, receipt: SAMPLE_RECEIPT },
        pending: { operation: 'install', intended: SAMPLE_RECEIPT },
      },
      'forward',
      [
        '  generation 3; removed at generation 2',
        '  pending install write: the next run settles it forward',
      ],
    ],
    [
      'no receipt, a pending remove of unknown settlement',
      { receipt: null, removed: null, pending: { operation: 'remove', intended: null } },
      undefined,
      ['  generation 3; no receipt', '  pending remove write: the next run settles it unknown'],
    ],
  ])('describes the ledger record: %s', async (_name, fields, pending, lines) => {
    const record = { generation: 3, released: null, ...fields };
    expect(
      await text({
        ledger: {
          ...status().ledger,
          state: 'valid',
          record: record as never,
          generation: 3,
          pending: pending as never,
        },
      }),
    ).toBe(
      [
        'hooks file: /home/u/.cursor/hooks.json',
        '  file: absent',
        '  owned entry: not-installed',
        `ledger: ${LEDGER}: valid`,
        ...lines,
        'next step: none: nothing to do',
        '',
      ].join('\n'),
    );
  });

  const PATHS: HostPathsJSON = {
    verified: true,
    vouched: false,
    checks: [{ role: 'executable', check: 'exists', status: 'passed', path: '/opt/agent' }],
  };

  // Red: the checked spec's source mislabelled, or its line shown without host path checks.
  it.each([
    ['given', 'given'],
    ['receipt', 'receipted'],
  ] as const)('names the %s spec that was checked', async (source, label) => {
    expect(await text({}, { source, spec: SAMPLE_RECEIPT.spec }, PATHS)).toContain(
      `ledger: ${LEDGER}: absent\nchecked spec (${label}): /opt/agent | /etc/stop.json\nhost path checks: all 1 passed\nnext step`,
    );
    expect(await text({}, { source, spec: SAMPLE_RECEIPT.spec }, null)).not.toContain(
      'checked spec',
    );
    expect(await text({}, null, PATHS)).not.toContain('host path checks');
  });

  // Red: the contract line wrong when registered, unregistered, or with facts left null.
  it.each([
    [
      EVIDENCE,
      'contract: c1: qualified on cursor-agent 2025.10, linux/x64, 2025-10-01 (3 facts observed, 1 not observed; see cursorhooks contracts)',
    ],
    [
      { ...EVIDENCE, arch: null, date: null, observed: [], notObserved: ['x', 'y'] },
      'contract: c1: qualified on cursor-agent 2025.10, linux (0 facts observed, 2 not observed; see cursorhooks contracts)',
    ],
    [null, 'contract: c1: not registered'],
  ])('describes the contract (%#)', async (evidence, line) => {
    expect(await text({}, null, null, { id: 'c1', evidence })).toBe(
      [
        'hooks file: /home/u/.cursor/hooks.json',
        '  file: absent',
        '  owned entry: not-installed',
        `ledger: ${LEDGER}: absent`,
        line,
        'next step: none: nothing to do',
        '',
      ].join('\n'),
    );
  });

  // Red: a lock's holder, staleness or advice reworded or swapped; a foreign lock said to be
  // waited for, which every command refuses.
  it('describes held and stale locks, with and without a readable holder', async () => {
    const holder = { pid: 42, hostname: 'box', acquiredAt: '2026-01-01T00:00:00.000Z' };
    expect(
      await text({
        locks: [
          { role: 'hook-file', path: '/a.lock', state: 'held', holder },
          { role: 'ledger', path: '/b.lock', state: 'stale', holder },
          { role: 'ledger', path: '/c.lock', state: 'held', holder: undefined },
          { role: 'ledger', path: '/d.lock', state: 'stale', holder: undefined },
        ],
      }),
    ).toBe(
      [
        'hooks file: /home/u/.cursor/hooks.json',
        '  file: absent',
        '  owned entry: not-installed',
        `ledger: ${LEDGER}: absent`,
        'lock: /a.lock: held by pid 42 on box since 2026-01-01T00:00:00.000Z: commands wait for it',
        'lock: /b.lock: stale (pid 42 on box since 2026-01-01T00:00:00.000Z, no longer running): the next command recovers it',
        'lock: /c.lock: holds a file that is not a cursorhooks lock record: commands refuse it; remove it if no cursorhooks process is running',
        'lock: /d.lock: stale (a file that is not a cursorhooks lock record, no longer running): the next command recovers it',
        'next step: none: nothing to do',
        '',
      ].join('\n'),
    );
  });

  // Red: the metadata warning missing, reworded, or shown when the check was performed; a write
  // that refuses, or drops what it cannot see, described as one that keeps it.
  it.each([
    [
      { performed: false, why: 'acls-not-xattrs', writes: 'preserve' },
      'ACLs and extended attributes: not checked (acls-not-xattrs): a write keeps the extended attributes but cannot prove it keeps the ACLs',
    ],
    [
      { performed: false, why: 'windows-acls', writes: 'unchecked' },
      'ACLs and extended attributes: not checked (windows-acls): a write cannot prove it keeps them',
    ],
    [
      { performed: false, why: 'module-unloadable', writes: 'refuse' },
      'ACLs and extended attributes: not checked (module-unloadable): the optional @napi-rs/xattr module does not load, so a write that replaces an existing file refuses (metadata-not-preserved): reinstall with optional dependencies, or pass --accept-metadata-loss to replace it without them',
    ],
    [
      { performed: false, why: 'module-unloadable', writes: 'accept-loss' },
      'ACLs and extended attributes: not checked (module-unloadable): the optional @napi-rs/xattr module does not load; loss accepted (--accept-metadata-loss): a write replaces existing files without their ACLs and extended attributes',
    ],
  ] as const)(
    'warns when ACLs and extended attributes were not checked (%o), and says the next command',
    async (metadata, line) => {
      expect(
        await text({
          metadata,
          nextStep: { code: 'release', command: 'release', with: null, sentence: 'run release' },
        }),
      ).toBe(
        [
          'hooks file: /home/u/.cursor/hooks.json',
          '  file: absent',
          '  owned entry: not-installed',
          `ledger: ${LEDGER}: absent`,
          line,
          'next step: release: run release',
          // Given the flag, status prints the command with it, so it runs as printed.
          `  cursorhooks release --hooks-file /home/u/.cursor/hooks.json --ledger ${LEDGER}${metadata.writes === 'accept-loss' ? ' --accept-metadata-loss' : ''}`,
          '',
        ].join('\n'),
      );
    },
  );

  // Red: findings counted but not shown, the doctor line printed when nothing points at it (or
  // missing when something does), the count's plural or the command line reworded.
  it.each([
    [
      { findings: 1, worst: 'advice', pointsAtDoctor: false },
      ['hook sources: 1 finding, worst: advice'],
    ],
    [
      { findings: 2, worst: 'fires-twice', pointsAtDoctor: true },
      [
        "hook sources: 2 findings, worst: fires-twice: something voids this host's entry or runs it twice; doctor says where (it never writes)",
        `  cursorhooks doctor --hooks-file /home/u/.cursor/hooks.json --ledger ${LEDGER}`,
      ],
    ],
  ] as const)(
    'reports what doctor finds (%o) and points at doctor only when it matters',
    async (doctor, lines) => {
      expect(await text({ doctor })).toBe(
        [
          'hooks file: /home/u/.cursor/hooks.json',
          '  file: absent',
          '  owned entry: not-installed',
          `ledger: ${LEDGER}: absent`,
          ...lines,
          'next step: none: nothing to do',
          '',
        ].join('\n'),
      );
    },
  );
});
