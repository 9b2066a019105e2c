// simulate-stop fires the installed entry as Cursor does and judges the reply; --conformance runs
// the matrix. The observers are small scripts, each with one known behaviour: inline /bin/sh
// bodies here, and the conforming and failing observers of test/fixtures/observers/.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SimulateResultJSON } from '../../src/cli/simulate/simulate-result.js';
import { MAX_STOP_PAYLOAD_BYTES } from '../../src/index.js';
import { runConformance, simulateStop } from '../../src/node/simulate/simulate-stop.js';
import { FLAGS } from '../../src/node/write/fs-seam.js';
import { spawnCli } from '../demo/cli-process.js';
import type { CliOutcome } from '../demo/lifecycle.js';
import { type SeamCall, strays, wrapSeam } from '../node/support.js';
import { record } from '../shell/records.js';
import { files, type Home, home, install } from './file-support.js';
import { expectSchema } from './schema-check.js';
import { cli } from './support.js';

const FIXTURES = new URL('../fixtures/observers/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const sh = (body: string) => `#!/bin/sh\n${body}\n`;

/** A home whose installed entry's executable is `script`. */
async function observed(script: string): Promise<Home> {
  const where = home();
  writeFileSync(where.spec.executable, script);
  chmodSync(where.spec.executable, 0o755);
  const installed = await install(where);
  expect(installed.exitCode, installed.stderr).toBe(0);
  return where;
}

const simulate = (where: Home, ...more: string[]) =>
  cli(['simulate-stop', ...files(where), ...more, '--json']);

function resultOf(outcome: CliOutcome, exitCode: number): SimulateResultJSON {
  expect(outcome.exitCode, outcome.stderr).toBe(exitCode);
  const result = JSON.parse(outcome.stdout) as SimulateResultJSON;
  expectSchema('simulate-stop-result', result);
  return result;
}

/** The process has ended and been reaped (a killed orphan may stay a zombie for a moment). */
async function gone(pid: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const reasonOf = (outcome: CliOutcome) => JSON.parse(outcome.stderr).error.reason;
const besideObserver = (where: Home, name: string) => join(dirname(where.spec.executable), name);

/** Reads stdin to the end, keeps it beside the script, answers neutral. */
const RECORDING = sh(
  `cat > "$(dirname "$0")/stdin"; env > "$(dirname "$0")/env"; pwd > "$(dirname "$0")/cwd"; printf '%s\\n' "$@" > "$(dirname "$0")/argv"; printf '{}\\n'`,
);

const CASES = [
  'plain',
  'one-bom',
  'two-boms',
  'empty-stdin',
  'oversized',
  'stdin-held-open',
  'stdout-closed',
  'no-cursor-version',
  'no-status',
  'unknown-fields',
  'not-utf8',
];

describe('simulate-stop', () => {
  it('refuses simulate-not-owned when the ledger receipts no entry (red: it runs whatever stands in the file)', async () => {
    const where = home();
    const outcome = await simulate(where);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(reasonOf(outcome)).toBe('simulate-not-owned');
  });

  it('refuses simulate-not-owned when the entry was edited by hand (red: a tampered command is run)', async () => {
    const where = await observed(RECORDING);
    const text = readFileSync(where.hooks, 'utf8');
    writeFileSync(where.hooks, text.replace('"timeout": 5', '"timeout": 6'));
    const outcome = await simulate(where);
    expect(reasonOf(outcome)).toBe('simulate-not-owned');
    expect(existsSync(besideObserver(where, 'stdin'))).toBe(false);
  });

  it('refuses simulate-disabled while the user\'s "off" holds (red: the user is told the entry is not owned, as if something broke it)', async () => {
    const where = await observed(RECORDING);
    expect((await cli(['disable', ...files(where)])).exitCode).toBe(0);
    const outcome = await simulate(where);
    expect(outcome.exitCode).toBe(1);
    expect(reasonOf(outcome)).toBe('simulate-disabled');
    expect(existsSync(besideObserver(where, 'stdin'))).toBe(false);
  });

  it('refuses simulate-not-owned when the hook file is gone since the install (red: the receipted command is run from the ledger alone)', async () => {
    const where = await observed(RECORDING);
    unlinkSync(where.hooks);
    const outcome = await simulate(where);
    expect(outcome.exitCode).toBe(1);
    expect(reasonOf(outcome)).toBe('simulate-not-owned');
    expect(existsSync(besideObserver(where, 'stdin'))).toBe(false);
  });

  it('refuses simulate-contract-unregistered when the receipt names a qualified contract not given nor found where the ledger recorded it, and runs it with --contract-file (red: the user is told the entry is not owned)', async () => {
    const where = home();
    writeFileSync(where.spec.executable, RECORDING);
    const file = join(where.dir, 'record.json');
    writeFileSync(file, JSON.stringify(record()));
    const installed = await cli([
      'install',
      ...files(where),
      '--executable',
      where.spec.executable,
      '--selector',
      where.spec.selector,
      '--shell',
      'cursor-ide-3.40.1-linux-x64-posix-single-quote',
      '--contract-file',
      file,
      '--json',
    ]);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const moved = join(where.dir, 'moved.json');
    renameSync(file, moved);
    const blind = await simulate(where);
    expect(blind.exitCode).toBe(1);
    expect(blind.stdout).toBe('');
    expect(reasonOf(blind)).toBe('simulate-contract-unregistered');
    expect(existsSync(besideObserver(where, 'stdin'))).toBe(false);
    const result = resultOf(await simulate(where, '--contract-file', moved), 0);
    expect(result).toMatchObject({
      shell: 'cursor-ide-3.40.1-linux-x64-posix-single-quote',
      family: 'posix-single-quote',
      cursorVersion: '3.40.1',
    });
  });

  it('runs an entry installed with --contract-file without it, from the record the ledger keeps (red: simulate-contract-unregistered although the record is where it was)', async () => {
    const where = home();
    writeFileSync(where.spec.executable, RECORDING);
    const file = join(where.dir, 'record.json');
    writeFileSync(file, JSON.stringify(record()));
    const { executable, selector } = where.spec;
    const shell = 'cursor-ide-3.40.1-linux-x64-posix-single-quote';
    const spec = ['--executable', executable, '--selector', selector, '--shell', shell];
    const installed = await cli(['install', ...files(where), ...spec, '--contract-file', file]);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(resultOf(await simulate(where), 0)).toMatchObject({ shell, cursorVersion: '3.40.1' });
  });

  it("runs the entry as Cursor does: sh -c, in the hook file's directory, a minimal environment, the payload on stdin (red: any of them differs)", async () => {
    const where = await observed(RECORDING);
    process.env.CURSORHOOKS_TEST_LEAK = 'leaked';
    let outcome: CliOutcome;
    try {
      outcome = await simulate(where, '--cursor-version', '9.9.9');
    } finally {
      delete process.env.CURSORHOOKS_TEST_LEAK;
    }
    const result = resultOf(outcome, 0);
    expect(result).toMatchObject({
      mode: 'single',
      platform: 'posix',
      cwd: dirname(where.hooks),
      cursorVersion: '9.9.9',
      timeoutMs: 5000,
      passed: true,
      cases: null,
      failing: [],
      run: {
        verdict: 'neutral',
        exitCode: 0,
        timedOut: false,
        stdout: '{}\n',
        stdinConsumed: true,
      },
    });
    expect(result.command).toBe(
      JSON.parse(readFileSync(where.hooks, 'utf8')).hooks.stop[0].command,
    );
    const seen = (name: string) => readFileSync(besideObserver(where, name), 'utf8');
    expect(seen('cwd').trim()).toBe(dirname(where.hooks));
    expect(seen('argv')).toBe(`cursor-event\nstop\n--binding\n${where.spec.selector}\n`);
    const env = seen('env');
    expect(env).toContain('CURSOR_VERSION=9.9.9\n');
    expect(env).not.toContain('CURSORHOOKS_TEST_LEAK');
    const payload = JSON.parse(seen('stdin'));
    expect(payload).toMatchObject({
      hook_event_name: 'stop',
      cursor_version: '9.9.9',
      status: 'completed',
      loop_count: 0,
    });
  });

  it('marks its runs in the environment, CURSORHOOKS_SIMULATED=stop for one stop and =conformance for every matrix case (red: the observer cannot tell a simulation from a stop Cursor ran)', async () => {
    const where = await observed(
      sh(
        `n=$(ls "$(dirname "$0")" | grep -c '^env'); env > "$(dirname "$0")/env.$n"; cat > /dev/null; printf '{}\\n'`,
      ),
    );
    resultOf(await simulate(where), 0);
    const marks = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, index) =>
        readFileSync(besideObserver(where, `env.${from + index}`), 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('CURSORHOOKS_SIMULATED=')),
      );
    expect(marks(0, 1)).toEqual([['CURSORHOOKS_SIMULATED=stop']]);
    // Only the marks count here (stdin held open times this observer out).
    await simulate(where, '--conformance');
    expect(marks(1, 1 + CASES.length)).toEqual(
      CASES.map(() => ['CURSORHOOKS_SIMULATED=conformance']),
    );
  });

  it("defaults CURSOR_VERSION and the payload's cursor_version to the contract's version (red: a stop from another version is simulated)", async () => {
    const where = await observed(RECORDING);
    const result = resultOf(await simulate(where), 0);
    expect(result.cursorVersion).toBe('3.22.12');
    expect(readFileSync(besideObserver(where, 'env'), 'utf8')).toContain(
      'CURSOR_VERSION=3.22.12\n',
    );
    expect(JSON.parse(readFileSync(besideObserver(where, 'stdin'), 'utf8')).cursor_version).toBe(
      '3.22.12',
    );
  });

  it("runs a symlinked hook file's entry in the link's directory, as Cursor runs it in ~/.cursor (red: the dotfiles target's directory)", async () => {
    const where = home();
    const dotfiles = join(where.dir, 'dotfiles');
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'hooks.json'), '{"version": 1}\n');
    symlinkSync(join(dotfiles, 'hooks.json'), where.hooks);
    writeFileSync(where.spec.executable, RECORDING);
    expect((await install(where)).exitCode).toBe(0);
    const result = resultOf(await simulate(where), 0);
    expect(result.cwd).toBe(dirname(where.hooks));
    expect(result.realPath).toBe(join(dotfiles, 'hooks.json'));
    expect(readFileSync(besideObserver(where, 'cwd'), 'utf8').trim()).toBe(dirname(where.hooks));
  });

  it('sends the bytes of --payload exactly (red: the file is re-encoded or ignored)', async () => {
    const where = await observed(RECORDING);
    const payload = join(where.dir, 'payload.bin');
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0xff]);
    writeFileSync(payload, bytes);
    resultOf(await simulate(where, '--payload', payload), 0);
    expect(readFileSync(besideObserver(where, 'stdin'))).toEqual(bytes);
  });

  it('refuses a --payload over 4 MiB with simulate-payload-too-large, and a missing one as I/O naming the payload (red: it is sent, or the failure is unclear)', async () => {
    const where = await observed(RECORDING);
    const big = join(where.dir, 'big.json');
    writeFileSync(big, Buffer.alloc(4 * 1024 * 1024 + 1, 0x20));
    const tooLarge = await simulate(where, '--payload', big);
    expect(tooLarge.exitCode).toBe(1);
    expect(reasonOf(tooLarge)).toBe('simulate-payload-too-large');
    const missing = await simulate(where, '--payload', join(where.dir, 'absent.json'));
    expect(missing.exitCode).toBe(74);
    expect(JSON.parse(missing.stderr).error).toMatchObject({
      kind: 'io',
      role: 'payload',
      path: join(where.dir, 'absent.json'),
    });
    expect(existsSync(besideObserver(where, 'stdin'))).toBe(false);
  });

  it('refuses --payload with --conformance, and a relative --payload, as usage (red: one is silently ignored)', async () => {
    const where = await observed(RECORDING);
    const both = await simulate(where, '--conformance', '--payload', join(where.dir, 'p'));
    expect(both.exitCode).toBe(2);
    expect(reasonOf(both)).toBe('option-conflict');
    const relative = await simulate(where, '--payload', 'p.json');
    expect(relative.exitCode).toBe(2);
    expect(reasonOf(relative)).toBe('option-path-relative');
  });

  it.each([
    ['followup', `cat > /dev/null; printf '{"followup_message":"go on"}\\n'`],
    ['followup', `cat > /dev/null; printf '  {"other":1,"followup_message":""}'`],
    ['not-json', 'cat > /dev/null; echo done'],
    ['not-json', 'cat > /dev/null'],
    ['not-json', `cat > /dev/null; printf '[]'`],
    ['not-json', `cat > /dev/null; printf 'null'`],
    ['not-json', `cat > /dev/null; printf '{}{}'`],
    ['not-json', `cat > /dev/null; printf '{"a":"\\377"}'`],
    ['nonzero-exit', `cat > /dev/null; printf '{}\\n'; exit 1`],
    ['nonzero-exit', `cat > /dev/null; printf '{}\\n'; exit 2`],
    ['nonzero-exit', `cat > /dev/null; printf '{}\\n'; kill -TERM $$`],
  ])(
    'calls a reply %s and exits 1 with simulate-reply-not-neutral: %s (red: a reply that is not neutral passes)',
    async (verdict, body) => {
      const where = await observed(sh(body));
      const outcome = await simulate(where);
      const result = resultOf(outcome, 1);
      expect(result.run?.verdict).toBe(verdict);
      expect(result.passed).toBe(false);
      expect(reasonOf(outcome)).toBe('simulate-reply-not-neutral');
    },
  );

  it('calls a reply neutral with whitespace around the object and other members (red: only a bare {} passes)', async () => {
    const where = await observed(sh(`cat > /dev/null; printf ' \\n{"continue": true}\\r\\n\\t'`));
    expect(resultOf(await simulate(where), 0).run?.verdict).toBe('neutral');
  });

  it('calls a reply of more than 64 KiB not-json, keeping 64 KiB and counting the rest (red: a long reply is kept whole or judged by its head)', async () => {
    const where = await observed(
      // A neutral head, then what makes the whole not JSON, past what is kept.
      sh(`cat > /dev/null; printf '{}'; head -c 70000 /dev/zero | tr '\\0' ' '; printf x`),
    );
    const result = resultOf(await simulate(where), 1);
    expect(result.run).toMatchObject({
      verdict: 'not-json',
      stdoutBytes: 70003,
      stdoutTruncated: true,
    });
    expect(result.run?.stdout.length).toBe(64 * 1024);
  });

  it("keeps the entry's stderr and shows it, to tell why it failed (red: the failure's own words are lost)", async () => {
    const where = await observed(sh(`cat > /dev/null; echo 'no config' >&2; exit 3`));
    const outcome = await simulate(where);
    const result = resultOf(outcome, 1);
    expect(result.run).toMatchObject({
      verdict: 'nonzero-exit',
      exitCode: 3,
      stderr: 'no config\n',
      stderrBytes: 10,
    });
    const text = await cli(['simulate-stop', ...files(where)]);
    expect(text.stdout).toContain('exit 3, ');
    expect(text.stdout).toContain(', stderr "no config\\n" (10 bytes)\n');
  });

  it('returns at once when the entry answered but left a child holding its stderr, as the built CLI (red: simulate-stop waits for that child to end)', async () => {
    const where = await observed(
      sh(
        `cat > /dev/null; sleep 60 > /dev/null & echo $! > "$(dirname "$0")/child"; printf '{}\\n'`,
      ),
    );
    const started = Date.now();
    const outcome = await spawnCli(['simulate-stop', ...files(where), '--json'], '');
    const child = Number(readFileSync(besideObserver(where, 'child'), 'utf8'));
    process.kill(child, 'SIGKILL');
    expect(resultOf(outcome, 0).run?.verdict).toBe('neutral');
    // The child lives 60 s; simulate-stop ends in a fraction of that, however slow the machine.
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('kills an entry that hangs at the timeout, with what it started (red: a hung observer hangs simulate-stop, or its child survives)', async () => {
    const where = await observed(
      sh(`sleep 60 & echo $! > "$(dirname "$0")/child"; cat > /dev/null; sleep 60`),
    );
    const result = resultOf(await simulate(where), 1);
    expect(result.run).toMatchObject({ verdict: 'timed-out', timedOut: true, exitCode: null });
    const child = Number(readFileSync(besideObserver(where, 'child'), 'utf8'));
    expect(await gone(child)).toBe(true);
  });

  it('calls timed-out an entry that exits but leaves a child holding stdout open (red: the answer is judged before stdout ends)', async () => {
    const where = await observed(sh(`cat > /dev/null; printf '{}\\n'; sleep 60 &`));
    const result = resultOf(await simulate(where), 1);
    expect(result.run).toMatchObject({ verdict: 'timed-out', timedOut: true, exitCode: 0 });
  });

  it('prints the verdict, the run and the entry in text (red: the text hides what failed)', async () => {
    const where = await observed(sh(`cat > /dev/null; printf '{"followup_message":"go on"}\\n'`));
    const outcome = await cli(['simulate-stop', ...files(where)]);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stdout).toContain('simulate-stop: NOT NEUTRAL: followup\n');
    expect(outcome.stdout).toContain('exit 0');
    expect(outcome.stdout).toContain(`in ${dirname(where.hooks)}, CURSOR_VERSION=3.22.12`);
    expect(outcome.stderr).toContain('simulate-reply-not-neutral');
    const neutral = await observed(RECORDING);
    const passed = await cli(['simulate-stop', ...files(neutral)]);
    expect(passed.exitCode).toBe(0);
    expect(passed.stdout).toMatch(
      /^simulate-stop: neutral\n {2}neutral, exit 0, \d+ ms, stdout "\{\}\\n" \(3 bytes\)\n/,
    );
  });

  it('writes neither the hook file nor the ledger, nor anything beside them (red: a simulation takes a lock, settles or refreshes state)', async () => {
    const where = await observed(RECORDING);
    const before = [where.hooks, where.ledger].map((path) => [
      readFileSync(path),
      statSync(path).mtimeMs,
    ]);
    const near = [strays(dirname(where.hooks)), strays(dirname(where.ledger))];
    resultOf(await simulate(where), 0);
    resultOf(await simulate(where, '--conformance'), 1);
    expect(
      [where.hooks, where.ledger].map((path) => [readFileSync(path), statSync(path).mtimeMs]),
    ).toEqual(before);
    expect([strays(dirname(where.hooks)), strays(dirname(where.ledger))]).toEqual(near);
  });

  it('calls only reading file operations through the seam, in a single run and the matrix (red: any write, rename, unlink or lock)', async () => {
    const where = await observed(sh(`cat > /dev/null; printf '{}\\n'`));
    const calls: string[] = [];
    const fs = wrapSeam((call: SeamCall, _path, args) => {
      calls.push(
        call === 'open'
          ? `open:${args[1] === FLAGS.read || args[1] === FLAGS.readNoFollow ? 'read' : 'other'}`
          : call,
      );
    });
    const options = { hooksFile: where.hooks, ledger: where.ledger, fs };
    expect((await simulateStop(options)).run.verdict).toBe('neutral');
    await runConformance(options);
    expect(calls.length).toBeGreaterThan(0);
    const reading = new Set([
      'open:read',
      'fstat',
      'read',
      'close',
      'lstat',
      'realpath',
      'readlink',
    ]);
    expect(calls.filter((call) => !reading.has(call))).toEqual([]);
  });
});

/**
 * An observer that answers {} and writes a heartbeat at `path` on each stop: `stops` counting up
 * (or always 1), the stop's time in this second with a millisecond that counts up (or is fixed),
 * so a test can make the file change, or be written again unchanged.
 */
function heartbeatObserver(path: string, changes: { stops: boolean; at: boolean }): string {
  return sh(
    [
      'cat > /dev/null',
      'counter="$(dirname "$0")/count"',
      'n=$(( $(cat "$counter" 2>/dev/null || echo 0) + 1 ))',
      'echo "$n" > "$counter"',
      `stops=${changes.stops ? '$n' : '1'}`,
      `ms=${changes.at ? '$(( 100 + n ))' : '100'}`,
      // The day of the install, at its last second: later than the install, whatever the clock.
      'at="$(date -u +%Y-%m-%d)T23:59:59.$ms"Z',
      `printf '{"version":1,"stops":%s,"lastStop":{"at":"%s","cursorVersion":null,"verdict":null,"status":null,"loopCount":null}}' "$stops" "$at" > ${JSON.stringify(path)}`,
      "printf '{}\\n'",
    ].join('\n'),
  );
}

describe('simulate-stop and the recorded heartbeat', () => {
  const heartbeatOf = async (where: Home) =>
    (await simulateStop({ hooksFile: where.hooks, ledger: where.ledger })).heartbeat;

  async function withHeartbeat(script: (path: string) => string) {
    const where = home();
    const path = join(where.dir, 'beat.json');
    writeFileSync(where.spec.executable, script(path));
    chmodSync(where.spec.executable, 0o755);
    expect((await install(where, '--heartbeat', path)).exitCode).toBe(0);
    return { where, path };
  }

  // Red: a stop that changed the file is not reported recorded (by its count or by its time).
  it.each([
    ['its count', { stops: true, at: false }],
    ['its time', { stops: false, at: true }],
  ])('calls each stop recorded that changes the file, by %s', async (_, changes) => {
    const { where, path } = await withHeartbeat((at) => heartbeatObserver(at, changes));
    for (let round = 0; round < 2; round++) {
      expect(await heartbeatOf(where)).toEqual({ path, recorded: true, state: 'seen' });
    }
  });

  // Red: a file written again with the same stop, or never written, counts as this stop's record.
  it('calls a stop not recorded when the file keeps the stop it had, or stays absent', async () => {
    const same = await withHeartbeat((at) => heartbeatObserver(at, { stops: false, at: false }));
    expect(await heartbeatOf(same.where)).toMatchObject({ recorded: true });
    expect(await heartbeatOf(same.where)).toEqual({
      path: same.path,
      recorded: false,
      state: 'seen',
    });
    const none = await withHeartbeat(() => sh("cat > /dev/null; printf '{}\\n'"));
    expect(await heartbeatOf(none.where)).toEqual({
      path: none.path,
      recorded: false,
      state: 'no-stop',
    });
  });

  // Red: a heartbeat is reported for an install that recorded none.
  it('says nothing of a heartbeat when install recorded none', async () => {
    const where = await observed(sh("cat > /dev/null; printf '{}\\n'"));
    expect(await heartbeatOf(where)).toBeNull();
  });
});

describe('simulate-stop --conformance', () => {
  it.each([
    ['Python', 'conforming.py'],
    ['POSIX shell', 'conforming.sh'],
  ])(
    'passes every case for the conforming %s observer (red: a case a conforming observer cannot pass)',
    async (_, name) => {
      const where = await observed(fixture(name));
      const outcome = await simulate(where, '--conformance');
      const result = resultOf(outcome, 0);
      expect(outcome.stderr).toBe('');
      expect(result.mode).toBe('conformance');
      expect(result.run).toBeNull();
      expect(result.cases?.map((one) => [one.name, one.passed, one.failure, one.exitCode])).toEqual(
        CASES.map((case_) => [case_, true, null, 0]),
      );
      expect(result.failing).toEqual([]);
      expect(result.passed).toBe(true);
      const text = await cli(['simulate-stop', ...files(where), '--conformance']);
      expect(text.exitCode).toBe(0);
      expect(text.stdout).toMatch(/^conformance: passed, all 11 cases\n/);
    },
  );

  it('sends each case its bytes: BOMs, empty, 1 MiB + 1, fields dropped or added, a byte that is not UTF-8 (red: a case sends the plain payload)', async () => {
    // Run n keeps its stdin in seen.n (the runs are one after the other).
    const where = await observed(
      sh(
        `n=$(ls "$(dirname "$0")" | grep -c '^seen'); cat > "$(dirname "$0")/seen.$n"; printf '{}\\n'`,
      ),
    );
    await simulate(where, '--conformance');
    const byCase = Object.fromEntries(
      CASES.map((one, index) => [one, readFileSync(besideObserver(where, `seen.${index}`))]),
    );
    const plain = byCase.plain as Buffer;
    const object = (bytes: Buffer) => JSON.parse(bytes.toString('utf8'));
    expect(object(plain)).toMatchObject({
      hook_event_name: 'stop',
      cursor_version: '3.22.12',
      status: 'completed',
    });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(byCase['one-bom']).toEqual(Buffer.concat([bom, plain]));
    expect(byCase['two-boms']).toEqual(Buffer.concat([bom, bom, plain]));
    expect(byCase['empty-stdin']).toEqual(Buffer.alloc(0));
    expect(byCase.oversized?.length).toBe(MAX_STOP_PAYLOAD_BYTES + 1);
    expect(object(byCase.oversized as Buffer)).toEqual(object(plain));
    expect(byCase['stdin-held-open']).toEqual(plain);
    expect(byCase['stdout-closed']).toEqual(plain);
    expect(object(byCase['no-cursor-version'] as Buffer)).not.toHaveProperty('cursor_version');
    expect(object(byCase['no-status'] as Buffer)).not.toHaveProperty('status');
    expect(object(byCase['unknown-fields'] as Buffer)).toMatchObject({
      ...object(plain),
      x_future_field: expect.anything(),
    });
    const notUtf8 = byCase['not-utf8'] as Buffer;
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(notUtf8)).toThrow();
  }, 120_000);

  it.each([
    ['replies with a followup_message', 'followup.sh', 'plain', 'followup'],
    ['waits for the end of stdin', 'waits-for-eof.sh', 'stdin-held-open', 'timed-out'],
    ['exits 1', 'exits-1.sh', 'plain', 'nonzero-exit'],
    ['reads no stdin', 'reads-no-stdin.sh', 'oversized', 'stdin-unread'],
    ['prints something that is not JSON', 'not-json.sh', 'plain', 'not-json'],
    [
      'dies of SIGPIPE when stdout is closed',
      'dies-of-sigpipe.sh',
      'stdout-closed',
      'nonzero-exit',
    ],
    ['hangs', 'hangs.sh', 'plain', 'timed-out'],
  ])(
    'fails an observer that %s, naming the case (red: conformance passes it)',
    async (_, name, case_, failure) => {
      const where = await observed(fixture(name));
      const outcome = await simulate(where, '--conformance');
      const result = resultOf(outcome, 1);
      expect(reasonOf(outcome)).toBe('conformance-failed');
      expect(result.passed).toBe(false);
      expect(result.failing).toContain(case_);
      expect(result.failing).toEqual(
        result.cases?.filter((one) => !one.passed).map((one) => one.name),
      );
      expect(result.cases?.find((one) => one.name === case_)).toMatchObject({
        passed: false,
        failure,
      });
    },
    180_000,
  );

  it('names the failing cases in text, then the error (red: the text hides which case failed)', async () => {
    const where = await observed(fixture('reads-no-stdin.sh'));
    const text = await cli(['simulate-stop', ...files(where), '--conformance']);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toMatch(/^conformance: FAILED: .*oversized \(stdin-unread\)/);
    expect(text.stdout).toContain('\n  FAIL oversized: ');
    expect(text.stdout).toContain('\n  ok   plain: neutral, exit 0');
    expect(text.stderr).toContain('conformance-failed');
  });
});
