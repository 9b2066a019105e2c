// The options the file-level commands share and how their values are read: the declarations word
// for word, and every refusal with its reason, message and option. The module is imported afresh
// inside each test: its declarations are module-level constants, and a mutation run switches a
// mutant in only for code evaluated after the test began.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';

async function fresh() {
  vi.resetModules();
  const options = await import('../../src/cli/file/options.js');
  const { CliError } = await import('../../src/cli/cli-error.js');
  return { ...options, CliError };
}

/** What `act` throws, as the plain fields of a CliError of the same fresh module graph. */
async function refusal(act: (module: Awaited<ReturnType<typeof fresh>>) => unknown) {
  const module = await fresh();
  try {
    act(module);
  } catch (err) {
    expect(err).toBeInstanceOf(module.CliError);
    const { kind, reason, message, subject } = err as InstanceType<typeof module.CliError>;
    return { kind, reason, message, subject };
  }
  throw new Error('nothing was thrown');
}

describe('declarations', () => {
  // Red: a declaration's type, placeholder, requirement or help changed.
  it('declares the file, dry-run and vouch options', async () => {
    const { FILE_OPTIONS, DRY_RUN_OPTION, VOUCH_OPTION } = await fresh();
    expect(FILE_OPTIONS).toStrictEqual({
      'hooks-file': {
        type: 'string',
        value: 'PATH',
        help: "the hook file, an absolute path (default: ~/.cursor/hooks.json in the user's home)",
      },
      ledger: {
        type: 'string',
        value: 'PATH',
        required: true,
        help: "the host's receipt ledger, an absolute path, one per host application",
      },
    });
    expect(DRY_RUN_OPTION).toStrictEqual({
      'dry-run': {
        type: 'boolean',
        help: 'plan and print the diff; write nothing, not even the ledger',
      },
    });
    expect(VOUCH_OPTION).toStrictEqual({
      'vouch-unperformed-checks': {
        type: 'boolean',
        help: 'you vouch for host path checks reported not-performed (e.g. Windows ACLs); never for failed ones',
      },
    });
  });

  // Red: the spec options not required when asked, or their help without the default when not.
  it.each([
    [true, ''],
    [false, ' (default: the receipted one)'],
  ])('declares the spec options, required %s', async (required, when) => {
    const { specOptions } = await fresh();
    expect(specOptions(required)).toStrictEqual({
      executable: {
        type: 'string',
        value: 'PATH',
        required,
        help: `the hook executable, an absolute path${when}`,
      },
      selector: {
        type: 'string',
        value: 'PATH',
        required,
        help: `the selector (binding) file, an absolute path${when}`,
      },
      shell: {
        type: 'string',
        value: 'ID',
        required,
        help: `a shell contract id, see: cursorhooks contracts${when}`,
      },
    });
  });
});

describe('filesOf', () => {
  // Red: the default hook file not the user's ~/.cursor/hooks.json, or the paths swapped.
  it('defaults the hook file and keeps the ledger', async () => {
    const { filesOf } = await fresh();
    expect(filesOf({ ledger: '/l/ledger.json' })).toStrictEqual({
      hooksFile: join(homedir(), '.cursor', 'hooks.json'),
      ledger: '/l/ledger.json',
    });
    expect(filesOf({ 'hooks-file': '/h/hooks.json', ledger: '/l/ledger.json' })).toStrictEqual({
      hooksFile: '/h/hooks.json',
      ledger: '/l/ledger.json',
    });
  });

  // Red: a ledger naming the hook file (spelled another way) accepted.
  it('refuses a ledger that names the hook file', async () => {
    expect(
      await refusal(({ filesOf }) =>
        filesOf({ 'hooks-file': '/h/hooks.json', ledger: '/h/x/../hooks.json' }),
      ),
    ).toStrictEqual({
      kind: 'usage',
      reason: 'ledger-is-hook-file',
      message: 'option --ledger names the hook file itself: give the ledger a file of its own',
      subject: { option: '--ledger' },
    });
  });

  // Red: a relative path resolved against the working directory instead of refused.
  it.each(['hooks-file', 'ledger'])('refuses a relative --%s', async (name) => {
    expect(
      await refusal(({ filesOf }) =>
        filesOf({ 'hooks-file': '/h/hooks.json', ledger: '/l/ledger.json', [name]: 'x.json' }),
      ),
    ).toStrictEqual({
      kind: 'usage',
      reason: 'option-path-relative',
      message: `option --${name} needs an absolute path`,
      subject: { option: `--${name}` },
    });
  });
});

describe('absolute', () => {
  // Red: an absent option refused, or an absolute one changed.
  it('passes an absent or absolute value through', async () => {
    const { absolute } = await fresh();
    expect(absolute({}, 'ledger')).toBeUndefined();
    expect(absolute({ ledger: '/a/../b' }, 'ledger')).toBe('/a/../b');
  });
});

describe('specOf', () => {
  // Red: the spec made from one option alone, or not made from both.
  it('takes both spec options or neither', async () => {
    const { specOf } = await fresh();
    expect(specOf({})).toBeUndefined();
    expect(specOf({ executable: '/e', selector: '/s' })).toStrictEqual({
      executable: '/e',
      selector: '/s',
    });
  });

  // Red: the missing option misnamed, or one option accepted alone.
  it.each([
    [{ selector: '/s' }, '--executable', '--selector'],
    [{ executable: '/e' }, '--selector', '--executable'],
  ])('refuses %j alone', async (options, missing, given) => {
    expect(await refusal(({ specOf }) => specOf(options))).toStrictEqual({
      kind: 'usage',
      reason: 'option-required',
      message: `option ${missing} is required with ${given}`,
      subject: { option: missing },
    });
  });
});

describe('shellOf', () => {
  // Red: an absent or registered shell refused.
  it('passes an absent or registered shell through', async () => {
    const { shellOf } = await fresh();
    expect(shellOf({}, ['a'])).toBeUndefined();
    expect(shellOf({ shell: 'b' }, ['a', 'b'])).toBe('b');
  });

  // Red: an unknown shell let through, the refusal not listing the registered ids, or a
  // qualified id given without its record left without the hint to pass --contract-file.
  it('refuses an unknown shell, naming the registered ones and how to register a qualified one', async () => {
    expect(await refusal(({ shellOf }) => shellOf({ shell: 'c' }, ['a', 'b']))).toStrictEqual({
      kind: 'usage',
      reason: 'shell-unknown',
      message:
        'option --shell names no registered shell contract; the registered ones are: a, b; a contract from qualify finish is registered by passing its record with --contract-file',
      subject: { option: '--shell' },
    });
  });
});
