// runStopObserver as Cursor runs it: a child process on the built kit, the payload on stdin,
// the reply read from stdout. Whatever happens, exactly `{}` and a newline, and exit code 0;
// each case runs on both bundles the package ships, the ES module and the CommonJS one.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltObserver } from './built.js';
import { MATRIX, stopPayload, VERSION } from './payloads.js';
import { type RunOptions, runObserver } from './run-observer.js';

const SCRIPTS = [
  ['ES module', new URL('fixtures/behaviours.mjs', import.meta.url).pathname],
  ['CommonJS', new URL('fixtures/behaviours.cjs', import.meta.url).pathname],
] as const;
const PLAIN = JSON.stringify(stopPayload());
/** Short, so the hanging cases end quickly; the default has its own test. */
const QUICK = { DEADLINE_MS: '1000' };

function expectNeutral(run: { code: number | null; signal: unknown; stdout: string }): void {
  expect(run.signal).toBe(null);
  expect(run.stdout).toBe('{}\n');
  expect(run.code).toBe(0);
}

beforeAll(requireBuiltObserver);

describe.each(SCRIPTS)('runStopObserver on the %s bundle answers {} and exits 0', (_, SCRIPT) => {
  const observe = (behaviour: string, options: RunOptions = {}) =>
    runObserver(process.execPath, [SCRIPT, behaviour], { stdin: PLAIN, ...options });

  it.each(MATRIX)(
    'for %s, and passes the handler what it read (red: a bad payload crashes the observer or is misread)',
    async (_, stdin, problem) => {
      const run = await observe('report', { stdin, env: { CONTRACT: VERSION } });
      expectNeutral(run);
      const event = JSON.parse(/^event (.*)$/m.exec(run.stderr)?.[1] ?? 'null');
      expect(event.problem).toBe(problem);
      if (problem !== null) expect(event.check.verdict).toBe('payload-unreadable');
      else expect(event.check.verdict).not.toBe('payload-unreadable');
    },
  );

  it('when the handler hangs, at the deadline (red: the stop waits for the handler past the entry timeout)', async () => {
    const run = await observe('hang', { env: QUICK });
    expectNeutral(run);
    expect(run.stderr).toContain('handler started');
  });

  // The entry's timeout is 5 s: the default deadline must leave the answer time to get out.
  it('when the handler hangs, by the default 3 s deadline, well before the 5 s entry timeout (red: no default deadline)', async () => {
    let started = 0;
    const run = await observe('hang', {
      when: { text: 'handler started', act: () => (started = performance.now()) },
    });
    expectNeutral(run);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThan(2500);
    expect(waited).toBeLessThan(5000);
  });

  it.each([
    ['throws', 'throw', 'handler threw'],
    ['rejects', 'reject', 'handler rejected'],
    ['throws later, from a timer', 'throw-later', 'thrown from a timer'],
  ])(
    'when the handler %s, and says so on stderr (red: exit 1 with a stack and no reply)',
    async (_, behaviour, message) => {
      const run = await observe(behaviour, { env: QUICK });
      expectNeutral(run);
      expect(run.stderr).toContain('the stop handler threw or rejected');
      expect(run.stderr).toContain(message);
    },
  );

  it("when the handler writes to stdout with console.log, console.info and process.stdout.write, which go to stderr (red: the handler's text reaches Cursor as a follow-up)", async () => {
    const run = await observe('print');
    expectNeutral(run);
    expect(run.stderr).toContain('from console.log');
    expect(run.stderr).toContain('from console.info');
    expect(run.stderr).toContain('from process.stdout.write');
  });

  it('when the handler sets another exit code (red: the observer exits 3)', async () => {
    expectNeutral(await observe('exit-code'));
  });

  it('when stdin is held open, at the deadline, without calling the handler (red: the observer waits for Cursor forever)', async () => {
    const run = await observe('report', { holdStdin: true, env: QUICK });
    expectNeutral(run);
    expect(run.stderr).not.toContain('event ');
  });

  it("reads a non-blocking stdin with nothing in it yet, then the payload (red: an empty pipe's EAGAIN is taken as the end of input and the payload reads as empty)", async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'cursorhooks-observer-')), 'stdin');
    execFileSync('mkfifo', [fifo]);
    // O_NONBLOCK lives on the open file, which the child's stdin shares.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    const child = spawn(process.execPath, [SCRIPT, 'report'], {
      stdio: [reader, 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CONTRACT: VERSION },
    });
    closeSync(reader);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // Written once the child has surely made its first read and met an empty pipe.
    setTimeout(() => {
      writeSync(writer, PLAIN);
      closeSync(writer);
    }, 500);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('{}\n');
    expect(code).toBe(0);
    const event = JSON.parse(/^event (.*)$/m.exec(stderr)?.[1] ?? 'null');
    expect(event).toMatchObject({ problem: null, payload: stopPayload() });
  });

  it('exits 0 without a crash when stdout is closed at once (red: EPIPE kills the observer with a stack)', async () => {
    const run = await observe('neutral', { closeStdout: true });
    expect(run.signal).toBe(null);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/EPIPE|Error/);
  });

  it('when SIGTERM arrives mid-handler (red: killed by the signal, no reply)', async () => {
    const run = await observe('hang', {
      when: { text: 'handler started', act: (child) => child.kill('SIGTERM') },
    });
    expectNeutral(run);
  });

  // Red: a mistyped option crashes every stop, or the line does not say which option it is.
  it('with invalid options, and names the reason and the option on stderr', async () => {
    const run = await observe('neutral', { env: { HEARTBEAT: 'relative/heartbeat.json' } });
    expectNeutral(run);
    expect(run.stderr).toContain('an observer option is not of its documented type');
    expect(run.stderr).toContain('(option: heartbeat)');
    expect(run.stderr).not.toContain('relative/heartbeat.json');
  });
});
