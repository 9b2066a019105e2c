import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { WindowsPowerShellStopContract } from '../../contracts/windows-powershell-stop-2026.10.01.js';
import { UnsupportedError } from '../../src/errors/errors.js';
import type { ErrorReason } from '../../src/errors/reasons.js';
import type { PathRole } from '../../src/shell/contract.js';
import { stopArgv } from '../../src/shell/stop-invocation.js';
import { expectRefusal } from './refusal.js';

const windows = new WindowsPowerShellStopContract();
const EXE = 'C:\\Program Files\\Agent\\agent.exe';
const SELECTOR = 'C:\\ProgramData\\Agent\\binding.json';

const BOTH: readonly PathRole[] = ['executable', 'selector'];

// Refused paths keep an `.exe` name where they can, so the executable role reaches the rule.
const refuses = (path: unknown, reason: ErrorReason, roles: readonly PathRole[] = BOTH) => {
  for (const role of roles) {
    expectRefusal(
      () => windows.assertCanonicalPath(path as string, role),
      UnsupportedError,
      reason,
    );
  }
};

describe('Windows canonical paths: accepted', () => {
  it.each([
    EXE,
    'c:\\a\\B.EXE',
    "D:\\O'Brien\\App Data\\x.Exe",
    'C:\\x.exe',
    'C:\\.hidden\\...x\\a.b\\x.exe',
    'C:\\CONSOLE\\COM10\\LPT\\xCON\\NULL.exe',
    'C:\\con-fig\\CON_\\x.exe',
    'C:\\CO N\\ NUL.txt\\x.exe',
    'C:\\tools\\a&b (x86)\\{z};!#~%@^,=+.exe',
    'C:\\数据\\Überwachung\\😀.exe',
  ])('accepts the executable %j, or valid installs are refused', (path) => {
    expect(() => windows.assertCanonicalPath(path, 'executable')).not.toThrow();
    expect(() => windows.assertCanonicalPath(path, 'selector')).not.toThrow();
  });

  it.each([SELECTOR, 'C:\\a', 'z:\\binding', "C:\\it's\\binding.json"])(
    'accepts the selector %j, or valid selectors are refused',
    (path) => expect(() => windows.assertCanonicalPath(path, 'selector')).not.toThrow(),
  );
});

describe('Windows canonical paths: refused', () => {
  it.each([
    '\\\\server\\share\\x.exe',
    '\\\\?\\C:\\x.exe',
    '\\\\.\\C:\\x.exe',
    '\\\\?\\UNC\\server\\share\\x.exe',
  ])('refuses the namespace form %j, or a remote or device path runs', (path) =>
    refuses(path, 'path-unc'),
  );

  it.each(['C:/a/x.exe', 'C:\\a/x.exe', '//server/share/x.exe', 'C:\\a\\x.exe/'])(
    'refuses the forward slash in %j, or a second separator spelling passes',
    (path) => refuses(path, 'path-forward-slash'),
  );

  it.each(['', 'x.exe', 'a\\x.exe', '\\a\\x.exe', 'C:x.exe', 'C:a\\x.exe', 'C:', '1:\\x.exe'])(
    'refuses %j as not drive-absolute, or a path resolves against the current directory',
    (path) => refuses(path, 'path-not-absolute'),
  );

  it('refuses the bare drive root, or the root directory runs as a program', () => {
    refuses('C:\\', 'path-root-alias');
  });

  it.each(['C:\\a\\', 'C:\\a\\x.exe\\'])(
    'refuses the trailing backslash in %j, or a directory spelling passes',
    (path) => refuses(path, 'path-trailing-separator'),
  );

  it.each(['C:\\a\\\\x.exe', 'C:\\\\x.exe'])(
    'refuses the empty segment in %j, or two spellings of one file both pass',
    (path) => refuses(path, 'path-empty-segment'),
  );

  it.each(['C:\\a\\.\\x.exe', 'C:\\a\\..\\x.exe', 'C:\\..', 'C:\\a\\.'])(
    'refuses the dot segment in %j, or the path is not canonical',
    (path) => refuses(path, 'path-dot-segment'),
  );

  it.each(['C:\\a.\\x.exe', 'C:\\a \\x.exe', 'C:\\a\\x.exe.', 'C:\\a\\x.exe ', 'C:\\a\\ '])(
    'refuses the trailing dot or space in %j, or Windows opens a file other than the one named',
    (path) => refuses(path, 'path-segment-trailing-dot-or-space'),
  );

  it.each(['<', '>', ':', '"', '|', '?', '*'])(
    'refuses %j after the drive, or a wildcard, pipe or stream name reaches the filesystem',
    (char) => refuses(`C:\\a${char}b\\x.exe`, 'path-reserved-character'),
  );

  it('refuses a second colon (alternate data stream), or a stream of the .exe runs', () => {
    refuses('C:\\a\\b.exe:ads', 'path-reserved-character');
  });

  it.each(['\t', '\u0001', '\u001f', '\u007f', '\u0080', '\u009f'])(
    'refuses the control character %j, or an invisible character hides in the path',
    (char) => refuses(`C:\\a${char}b\\x.exe`, 'path-control-character'),
  );

  // Line terminators are refused as control characters: a reader of the command could break
  // the line at them. In the .exe name too, where the true reason must still be named.
  it.each(['\u0085', '\u2028', '\u2029'])(
    'refuses the line terminator %j as a control character, in a directory or the .exe name, or a path rule names the wrong reason',
    (char) => {
      refuses(`C:\\a${char}b\\x.exe`, 'path-control-character');
      refuses(`C:\\a\\x${char}y.exe`, 'path-control-character');
      refuses(`C:\\a\\${char}.exe`, 'path-control-character');
    },
  );

  it.each(['[', ']', '[a]'])(
    'refuses %j in the executable path, or PowerShell runs another file matching the pattern',
    (text) => {
      refuses(`C:\\a${text}b\\x.exe`, 'path-wildcard-character', ['executable']);
      refuses(`C:\\a\\x${text}.exe`, 'path-wildcard-character', ['executable']);
    },
  );

  it('accepts [ and ] in the selector, or a valid binding file name is refused', () => {
    expect(() => windows.assertCanonicalPath('C:\\sel\\[copy].json', 'selector')).not.toThrow();
  });

  it('refuses the wildcard after the reserved characters and before the segment rules, or reasons change between releases', () => {
    refuses('C:\\a|[b]\\x.exe', 'path-reserved-character', ['executable']);
    refuses('C:\\..\\[b].exe', 'path-wildcard-character', ['executable']);
  });

  it.each([
    'C:\\CON\\x.exe',
    'C:\\con\\x.exe',
    'C:\\PRN\\x.exe',
    'C:\\AUX\\x.exe',
    'C:\\a\\nul.txt\\x.exe',
    'C:\\COM0\\x.exe',
    'C:\\COM1\\x.exe',
    'C:\\COM1.exe',
    'C:\\a\\CoM3.log\\x.exe',
    'C:\\LPT0\\x.exe',
    'C:\\LPT9\\x.exe',
    'C:\\lPt5.tar.gz\\x.exe',
    'C:\\COM\u00b9\\x.exe',
    'C:\\lpt\u00b2.txt\\x.exe',
    'C:\\Com\u00b3\\x.exe',
    'C:\\CON .txt\\x.exe',
    'C:\\nul  .json\\x.exe',
    'C:\\a\\Nul.exe',
  ])('refuses the device name in %j, or the hook talks to a device', (path) =>
    refuses(path, 'path-reserved-device-name'),
  );

  it.each(['nul', 'CON.json', 'aux.txt'])(
    'refuses the selector device name %j, or the binding is read from a device',
    (name) => refuses(`C:\\a\\${name}`, 'path-reserved-device-name', ['selector']),
  );

  it.each(['\u2018', '\u2019', '\u201a', '\u201b', '\u201c', '\u201d', '\u201e'])(
    'refuses the quote look-alike %j, or PowerShell closes the quoted path early',
    (char) => refuses(`C:\\a${char}b\\x.exe`, 'path-quote-lookalike'),
  );

  it.each([
    'C:\\a\\x.bat',
    'C:\\a\\x',
    'C:\\a\\x.exe.bak',
    'C:\\a\\.exe',
    'C:\\a\\x.ex',
    'C:\\a.exe\\x',
  ])('refuses the executable %j, or a script or non-.exe file runs', (path) =>
    refuses(path, 'executable-not-exe', ['executable']),
  );

  it.each([
    ['dollar', 'C:\\a$b\\x.exe', 'argv-forbidden-character'],
    ['backtick', 'C:\\a`b\\x.exe', 'argv-forbidden-character'],
    ['NUL', 'C:\\a\u0000b\\x.exe', 'argv-forbidden-character'],
    ['LF', 'C:\\a\nb\\x.exe', 'argv-forbidden-character'],
    ['an unpaired surrogate', 'C:\\a\ud800\\x.exe', 'argv-unpaired-surrogate'],
    ['4,097 bytes', `C:\\${'中'.repeat(1363)}a.exe`, 'argv-token-too-long'],
  ] as const)(
    'refuses a path with %s by the token rules, or it expands or overflows in PowerShell',
    (_label, path, reason) => refuses(path, reason),
  );

  it('accepts a 4,096-byte path, or the token limit is off by one for paths', () => {
    const path = `C:\\${'中'.repeat(1363)}.exe`;
    expect(Buffer.byteLength(path, 'utf8')).toBe(4096);
    expect(() => windows.assertCanonicalPath(path, 'executable')).not.toThrow();
  });

  it.each([42, null, undefined])('refuses the non-string %j, or it is stringified', (path) =>
    refuses(path, 'argv-malformed'),
  );

  it.each([
    ['a control character before a device name', 'C:\\CON\\a\tb.exe', 'path-control-character'],
    ['a reserved character before a dot segment', 'C:\\..\\a|b.exe', 'path-reserved-character'],
    [
      'a trailing dot before a later empty segment',
      'C:\\a.\\\\b.exe',
      'path-segment-trailing-dot-or-space',
    ],
    ['a device name before the .exe check', 'C:\\a\\CON', 'path-reserved-device-name'],
  ] as const)(
    'reports %s in the documented order, or reasons change between releases',
    (_label, path, reason) => refuses(path, reason, ['executable']),
  );
});

describe('Windows render: stop form only', () => {
  it('renders the fixed stop invocation, or the qualified command changes', () => {
    expect(windows.render(stopArgv(EXE, SELECTOR))).toBe(
      "& 'C:\\Program Files\\Agent\\agent.exe' 'cursor-event' 'stop' '--binding' 'C:\\ProgramData\\Agent\\binding.json'",
    );
  });

  it.each([
    ['4 tokens', [EXE, 'cursor-event', 'stop', '--binding']],
    ['6 tokens', [...stopArgv(EXE, SELECTOR), '--extra']],
    ['no tokens', []],
    ['a changed subcommand', [EXE, 'cursor-Event', 'stop', '--binding', SELECTOR]],
    ['a changed event', [EXE, 'cursor-event', 'start', '--binding', SELECTOR]],
    ['a changed flag', [EXE, 'cursor-event', 'stop', '--bind', SELECTOR]],
  ])('refuses %s, or generic PowerShell argv is treated as qualified', (_label, argv) => {
    expectRefusal(() => windows.render(argv), UnsupportedError, 'argv-shape-unsupported');
  });

  it('refuses a selector in the executable slot, or a non-.exe file is run', () => {
    expectRefusal(
      () => windows.render(stopArgv(SELECTOR, EXE)),
      UnsupportedError,
      'executable-not-exe',
    );
  });

  it('applies the token rules before the shape, or a `$` in a middle token is reported as shape', () => {
    expectRefusal(
      () => windows.render([EXE, 'cursor-$event', 'stop', '--binding', SELECTOR]),
      UnsupportedError,
      'argv-forbidden-character',
    );
  });

  it('checks the executable path, or a non-canonical executable is rendered', () => {
    expectRefusal(
      () => windows.render(stopArgv('C:\\a\\..\\x.exe', SELECTOR)),
      UnsupportedError,
      'path-dot-segment',
    );
  });

  it('checks the selector path, or a non-canonical selector is rendered', () => {
    expectRefusal(
      () => windows.render(stopArgv(EXE, '\\\\server\\share\\binding.json')),
      UnsupportedError,
      'path-unc',
    );
  });

  it.each(['\u2018', '\u2019', '\u201a', '\u201b', '\u201c', '\u201d', '\u201e'])(
    'never emits the quote look-alike %j, or it closes a quoted PowerShell argument',
    (char) => {
      expectRefusal(
        () => windows.render(stopArgv(`C:\\a${char}\\x.exe`, SELECTOR)),
        UnsupportedError,
        'path-quote-lookalike',
      );
      expectRefusal(
        () => windows.render(stopArgv(EXE, `C:\\a\\b${char}.json`)),
        UnsupportedError,
        'path-quote-lookalike',
      );
    },
  );
});
