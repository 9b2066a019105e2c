// The simulated Cursor itself: the probe's end-to-end tests trust it to run hooks.json's stop
// commands the way Cursor does and to misbehave exactly as told. A recorder script stands in
// for the hook and writes what it was given next to itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderArgv, WindowsPowerShellStop20261001 } from '../../src/index.js';
import { underRoot } from '../shell/pwsh-checks.js';
import { stopTokens } from '../shell/windows-cases.js';
import { decodeStrict } from './common.js';
import { type ArgumentPassing, describeWithPwsh } from './pwsh.js';
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

function installRecorder(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, RECORDER_SCRIPT, { mode: 0o755 });
}

function clearRecords(dir: string): void {
  for (const name of RECORDS) fs.rmSync(path.join(dir, name), { force: true });
}

/** What the recorder in `dir` wrote; null when it never ran. */
function readRecords(dir: string): Recorded | null {
  const files = RECORDS.map((name) => path.join(dir, name));
  if (!files.some((file) => fs.existsSync(file))) return null;
  const read = (file: string) =>
    fs.existsSync(file) ? decodeStrict(fs.readFileSync(file)) : '<missing>';
  return Object.fromEntries(RECORDS.map((name, i) => [name, read(files[i] ?? '')])) as Recorded;
}

const recorded = () => readRecords(recorderDir());

const argvOf = (record: Recorded | null) =>
  record === null ? null : record.argv.split('\0').slice(0, -1);

function fire(shell: Shell, extra: Partial<FireOptions> = {}) {
  return fireStop({ hooksFile: hooksFile(), launcher: { kind: 'posix', shell }, ...extra });
}

describe.skipIf(WINDOWS)('the simulated Cursor under POSIX shells', () => {
  beforeAll(() => {
    scratchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-sim-'));
    fs.mkdirSync(cursorDir(), { recursive: true });
    installRecorder(recorder());
  });

  beforeEach(() => {
    if (scratchDir !== undefined) clearRecords(recorderDir());
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
      { misbehave: 'collapse-quotes', argv: ["it's", 'a b', "o'k"] },
      // The recorder's path holds no quote, so collapsing the program's token too changes nothing more.
      { misbehave: 'mangle-program', argv: ['', 'its a', 'b ok'] },
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

describeWithPwsh('the simulated Cursor under pwsh in the Windows wrapper', (pwsh) => {
  let dir: string | undefined;
  const root = () => {
    if (dir === undefined) throw new Error('the scratch directory was not created');
    return path.join(dir, 'drive');
  };
  const winHome = () => path.join(root(), 'home');
  const winHooks = () => path.join(winHome(), '.cursor', 'hooks.json');
  const EXECUTABLE = 'X:\\sim\\agent.exe';
  // A first hook that only says it ran, into the recorder's `order`.
  const FIRST = 'X:\\sim\\first.exe';
  const agentDir = () => path.dirname(underRoot(root(), EXECUTABLE));
  const winRecorded = () => readRecords(agentDir());

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cursorhooks-sim-pwsh-'));
    fs.mkdirSync(path.dirname(winHooks()), { recursive: true });
    installRecorder(underRoot(root(), EXECUTABLE));
    fs.writeFileSync(
      underRoot(root(), FIRST),
      `#!/bin/sh\nprintf 'first\\n' >> "\${0%/*}/order"\n`,
      {
        mode: 0o755,
      },
    );
    await pwsh().mapDrives(root());
  });
  beforeEach(() => {
    if (dir !== undefined) clearRecords(agentDir());
  });
  afterAll(() => {
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });

  const fireWindows = (mode: ArgumentPassing, extra: Partial<FireOptions> = {}) =>
    fireStop({ hooksFile: winHooks(), launcher: { kind: 'pwsh', pwsh: pwsh(), mode }, ...extra });

  it.each(['Standard', 'Legacy'] as const)(
    'runs both stop entries in order under %s, in ~/.cursor, with the payload piped in and CURSOR_VERSION set, or the Windows probe tests run against a Cursor that does not exist',
    async (mode) => {
      const first = renderArgv(WindowsPowerShellStop20261001, stopTokens(FIRST, 'C:\\first'));
      const tokens = stopTokens(EXECUTABLE, "C:\\Users\\O'Neil\\a b.json");
      const second = renderArgv(WindowsPowerShellStop20261001, tokens);
      fs.writeFileSync(
        winHooks(),
        JSON.stringify({ version: 1, hooks: { stop: [{ command: first }, { command: second }] } }),
      );
      const fired = await fireWindows(mode, { cursorVersion: '9.8.7' });
      expect(fired.map(({ command, exit, stderr }) => ({ command, exit, stderr }))).toEqual([
        { command: first, exit: 0, stderr: '' },
        { command: second, exit: 0, stderr: '' },
      ]);
      expect(winRecorded()).toEqual({
        order: 'first\nrecorder\n',
        argv: `${tokens.slice(1).join('\0')}\0`,
        cwd: `${fs.realpathSync(path.dirname(winHooks()))}\n`,
        // PowerShell writes a string to a native command's stdin followed by a newline.
        stdin: `${fired[1]?.stdin}\n`,
        version: '9.8.7',
        home: winHome(),
        leak: '<unset>',
      });
      expect(JSON.parse(fired[1]?.stdin ?? '')).toMatchObject({
        hook_event_name: 'stop',
        cursor_version: '9.8.7',
      });
    },
  );

  it('unsets CURSOR_VERSION when told, or the Windows probe cannot be shown a Cursor that hides it', async () => {
    const command = renderArgv(WindowsPowerShellStop20261001, stopTokens(EXECUTABLE, 'C:\\b'));
    fs.writeFileSync(winHooks(), JSON.stringify({ version: 1, hooks: { stop: [{ command }] } }));
    await fireWindows('Legacy', { versionInEnv: false });
    expect(winRecorded()?.version).toBe('<unset>');
  });

  it('collapse-quotes takes the doubled apostrophe out of a token, or the Windows probe is never shown that launcher bug', async () => {
    const command = renderArgv(WindowsPowerShellStop20261001, stopTokens(EXECUTABLE, "C:\\it's"));
    fs.writeFileSync(winHooks(), JSON.stringify({ version: 1, hooks: { stop: [{ command }] } }));
    await fireWindows('Legacy', { misbehave: 'none' });
    expect(argvOf(winRecorded())).toEqual(['cursor-event', 'stop', '--binding', "C:\\it's"]);
    clearRecords(agentDir());
    await fireWindows('Legacy', { misbehave: 'collapse-quotes' });
    expect(argvOf(winRecorded())).toEqual(['cursor-event', 'stop', '--binding', 'C:\\its']);
  });

  it.each(['reevaluate', 'drop-empty', 'mangle-program'] as const)(
    'refuses %s, which it models for POSIX launchers only, or a Windows test believes it saw that bug',
    async (misbehave) => {
      await expect(fireWindows('Legacy', { misbehave })).rejects.toThrow(/POSIX launchers only/);
    },
  );
});
