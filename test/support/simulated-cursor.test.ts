// The simulated Cursor itself: the probe's end-to-end tests trust it to run hooks.json's stop
// commands the way Cursor does and to misbehave exactly as told. A recorder script stands in
// for the hook and writes what it was given next to itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeStrict } from './common.js';
import { expectRequiredShellsFound, POSIX_SHELLS, type Shell, WINDOWS } from './shells.js';
import {
  DEFAULT_CURSOR_VERSION,
  type FireOptions,
  fireStop,
  type Misbehaviour,
} from './simulated-cursor.js';

// Every failure to record exits non-zero; `order` is appended to, so a second call shows.
const RECORDER_SCRIPT = [
  '#!/bin/sh',
  `here=\${0%/*}`,
  `printf 'recorder\\n' >> "$here/order" || exit 70`,
  `printf '%s\\0' "$@" > "$here/argv" || exit 71`,
  `pwd -P > "$here/cwd" || exit 72`,
  `cat > "$here/stdin" || exit 73`,
  `printf '%s' "\${CURSOR_VERSION-<unset>}" > "$here/version" || exit 74`,
  `printf '%s' "$HOME" > "$here/home" || exit 75`,
  `printf '%s' "\${CURSORHOOKS_SIM_LEAK-<unset>}" > "$here/leak" || exit 76`,
  '',
].join('\n');

const RECORDS = ['order', 'argv', 'cwd', 'stdin', 'version', 'home', 'leak'] as const;
type Recorded = Record<(typeof RECORDS)[number], string>;

/** A POSIX single-quoted word, written out here independently of the contracts. */
const quote = (token: string) => `'${token.replaceAll("'", `'"'"'`)}'`;
const commandOf = (argv: readonly string[]) => argv.map(quote).join(' ');

/** An empty token, apostrophes and a space: what every misbehaviour gets wrong. */
const HOSTILE_ARGV = ['', "it's", 'a b', "o'k"];

let scratchDir: string | undefined;
const scratch = () => {
  if (scratchDir === undefined) throw new Error('the scratch directory was not created');
  return scratchDir;
};
const home = () => path.join(scratch(), 'home');
const cursorDir = () => path.join(home(), '.cursor');
const hooksFile = () => path.join(cursorDir(), 'hooks.json');
const recorderDir = () => path.join(scratch(), 'bin');
const recorder = () => path.join(recorderDir(), 'agent');

function writeHooks(hooks: Record<string, unknown>): void {
  fs.writeFileSync(hooksFile(), JSON.stringify({ version: 1, hooks }, null, 2));
}

/** What the recorder wrote; null when it never ran. */
function recorded(): Recorded | null {
  const files = RECORDS.map((name) => path.join(recorderDir(), name));
  if (!files.some((file) => fs.existsSync(file))) return null;
  const read = (file: string) =>
    fs.existsSync(file) ? decodeStrict(fs.readFileSync(file)) : '<missing>';
  return Object.fromEntries(RECORDS.map((name, i) => [name, read(files[i] ?? '')])) as Recorded;
}

const argvOf = (record: Recorded | null) =>
  record === null ? null : record.argv.split('\0').slice(0, -1);

function fire(shell: Shell, extra: Partial<FireOptions> = {}) {
  return fireStop({ hooksFile: hooksFile(), launcher: { kind: 'posix', shell }, ...extra });
}

describe.skipIf(WINDOWS)('the simulated Cursor under POSIX shells', () => {
  beforeAll(() => {
    scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-sim-'));
    fs.mkdirSync(cursorDir(), { recursive: true });
    fs.mkdirSync(recorderDir());
    fs.writeFileSync(recorder(), RECORDER_SCRIPT, { mode: 0o755 });
  });

  beforeEach(() => {
    for (const name of RECORDS) fs.rmSync(path.join(recorderDir(), name), { force: true });
  });

  afterAll(() => {
    if (scratchDir !== undefined) fs.rmSync(scratchDir, { recursive: true, force: true });
  });

  it('finds /bin/sh and every shell in CURSORHOOKS_REQUIRED_SHELLS, or a missing shell goes unsimulated', () => {
    expectRequiredShellsFound();
  });

  describe.each(POSIX_SHELLS.map((shell) => ({ ...shell })))('$label -c', (shell) => {
    it('runs both stop entries in order, in ~/.cursor, with the payload on stdin and CURSOR_VERSION set, or the probe tests run against a Cursor that does not exist', async () => {
      const order = path.join(recorderDir(), 'order');
      const first = `printf 'first\\n' >> ${quote(order)}`;
      const second = commandOf([recorder(), 'cursor-event', 'stop']);
      writeHooks({ stop: [{ command: first }, { command: second }] });
      process.env.CURSORHOOKS_SIM_LEAK = 'leaked';
      let fired: Awaited<ReturnType<typeof fireStop>>;
      try {
        fired = await fire(shell, { cursorVersion: '9.8.7' });
      } finally {
        delete process.env.CURSORHOOKS_SIM_LEAK;
      }
      expect(fired.map(({ command, exit, stderr }) => ({ command, exit, stderr }))).toEqual([
        { command: first, exit: 0, stderr: '' },
        { command: second, exit: 0, stderr: '' },
      ]);
      const stdin = fired[1]?.stdin ?? '';
      expect(fired[0]?.stdin, 'each hook of one stop gets the same payload').toBe(stdin);
      expect(recorded()).toEqual({
        order: 'first\nrecorder\n',
        argv: 'cursor-event\0stop\0',
        cwd: `${fs.realpathSync(cursorDir())}\n`,
        stdin,
        version: '9.8.7',
        home: home(),
        leak: '<unset>',
      });
      const payload: unknown = JSON.parse(stdin);
      expect(payload).toEqual({
        conversation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        generation_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        hook_event_name: 'stop',
        status: 'completed',
        loop_count: 0,
        cursor_version: '9.8.7',
        workspace_roots: [path.join(home(), 'project')],
      });
    });

    it('passes an empty token, apostrophes and a space unchanged when told not to misbehave, or the misbehaviour checks below compare against a broken baseline', async () => {
      writeHooks({ stop: [{ command: commandOf([recorder(), ...HOSTILE_ARGV]) }] });
      const [hook] = await fire(shell, { misbehave: 'none' });
      expect(hook?.exit).toBe(0);
      expect(argvOf(recorded())).toEqual(HOSTILE_ARGV);
    });

    // What each buggy launcher hands the recorder instead (null: the recorder never ran).
    const MISBEHAVED: readonly { misbehave: Misbehaviour; argv: readonly string[] | null }[] = [
      { misbehave: 'reevaluate', argv: ['its a b ok'] },
      { misbehave: 'drop-empty', argv: ["it's", 'a b', "o'k"] },
      { misbehave: 'collapse-quotes', argv: null },
    ];
    it.each(MISBEHAVED)(
      '$misbehave hands the recorder $argv, or the probe is never shown that launcher bug',
      async ({ misbehave, argv }) => {
        writeHooks({ stop: [{ command: commandOf([recorder(), ...HOSTILE_ARGV]) }] });
        await fire(shell, { misbehave });
        expect(argvOf(recorded())).toEqual(argv);
      },
    );
  });

  const sh = POSIX_SHELLS[0];
  describe.skipIf(sh === undefined)('/bin/sh only', () => {
    const shell = sh as Shell;

    it('never-fire runs nothing, or a probe-not-fired test sees a recording', async () => {
      writeHooks({ stop: [{ command: commandOf([recorder()]) }] });
      expect(await fire(shell, { misbehave: 'never-fire' })).toEqual([]);
      expect(recorded()).toBeNull();
    });

    it('runs neither other events nor stop entries without a string command, or a foreign hook fires as if it were the probe', async () => {
      const run = commandOf([recorder(), 'ran']);
      writeHooks({
        afterFileEdit: [{ command: commandOf([recorder(), 'afterFileEdit']) }],
        beforeSubmitPrompt: [{ command: commandOf([recorder(), 'beforeSubmitPrompt']) }],
        stop: [{}, { command: 42 }, { type: 'command', cmd: run }, [run], run, { command: run }],
      });
      const fired = await fire(shell);
      expect(fired.map((hook) => hook.command)).toEqual([run]);
      expect(recorded()?.order).toBe('recorder\n');
      expect(argvOf(recorded())).toEqual(['ran']);
    });

    it('drops the version from stdin or the environment when told, and reports the default otherwise, or the probe cannot be shown a Cursor that hides its version', async () => {
      writeHooks({ stop: [{ command: commandOf([recorder()]) }] });
      const [onlyEnv] = await fire(shell, { versionOnStdin: false });
      expect(JSON.parse(onlyEnv?.stdin ?? '')).not.toHaveProperty('cursor_version');
      expect(recorded()?.version).toBe(DEFAULT_CURSOR_VERSION);
      const [onlyStdin] = await fire(shell, { versionInEnv: false });
      expect(JSON.parse(onlyStdin?.stdin ?? '')).toHaveProperty(
        'cursor_version',
        DEFAULT_CURSOR_VERSION,
      );
      expect(recorded()?.version).toBe('<unset>');
    });

    it('passes `env` to the hook over the minimal environment, or a test cannot hand the probe its settings', async () => {
      writeHooks({ stop: [{ command: commandOf([recorder()]) }] });
      await fire(shell, { env: { CURSORHOOKS_SIM_LEAK: 'given', CURSOR_VERSION: 'from-env' } });
      expect(recorded()).toMatchObject({ leak: 'given', version: 'from-env' });
    });

    it('reports a hook that fails with its exit code and stderr, or a broken probe looks fired', async () => {
      writeHooks({ stop: [{ command: "printf 'oops' >&2; exit 3" }] });
      expect(await fire(shell)).toMatchObject([{ exit: 3, stderr: 'oops' }]);
    });

    it('throws on a hooks.json that is not JSON, or a broken test file reads as never fired', async () => {
      fs.writeFileSync(hooksFile(), '{"hooks": {"stop": [');
      await expect(fire(shell)).rejects.toThrow(SyntaxError);
    });
  });
});
