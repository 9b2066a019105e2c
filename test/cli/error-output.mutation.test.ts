// The error shape's edges that the CLI runs seldom reach: each library refusal's kind, each file
// role's name in a text-mode line, the internal failure's fixed words, and the help fallbacks for
// an option without a placeholder. The modules are imported afresh inside each test: their
// tables are module-level constants, switched by a mutation run only in code evaluated after the
// test began.
import { describe, expect, it, vi } from 'vitest';

async function fresh() {
  vi.resetModules();
  const output = await import('../../src/cli/error-output.js');
  const errors = await import('../../src/errors/errors.js');
  return { ...output, ...errors };
}

describe('the error shape', () => {
  it('gives each library refusal the most specific kind on its chain (red: a refusal gets another kind, and so another meaning for hosts)', async () => {
    const { refusalJSON, AbsenceUnprovenError, UnsupportedError, ConflictError } = await fresh();
    expect(refusalJSON(new AbsenceUnprovenError('owner-absent')).kind).toBe('absence-unproven');
    expect(refusalJSON(new UnsupportedError('json-syntax')).kind).toBe('unsupported');
    expect(refusalJSON(new ConflictError('owner-modified'))).toEqual({
      kind: 'conflict',
      reason: 'owner-modified',
      message: new ConflictError('owner-modified').message,
    });
    // A conflict caused by an absence is about the absence.
    const wrapped = new ConflictError('owner-modified', {
      cause: new AbsenceUnprovenError('owner-absent'),
    });
    expect(refusalJSON(wrapped).kind).toBe('absence-unproven');
  });

  it('names every file role in a text-mode line, and an unknown role as a path (red: the line names the wrong file)', async () => {
    const { errorLine } = await fresh();
    const line = (role?: string) =>
      errorLine({
        kind: 'io',
        reason: 'io-failure',
        message: 'failed',
        path: '/p',
        ...(role === undefined ? {} : { role }),
      });
    expect(
      ['hook-file', 'ledger', 'directory', 'lock', 'probe', 'record', 'other', undefined].map(line),
    ).toEqual(
      [
        'hook file',
        'ledger',
        'directory',
        'lock file',
        'qualification probe',
        'qualification record',
        'path',
        'path',
      ].map((name) => `cursorhooks: failed (${name}: /p) [io-failure]\n`),
    );
  });

  it('the internal failure has its fixed kind, reason and words (red: a bug reports itself as something else)', async () => {
    const { INTERNAL_ERROR } = await fresh();
    expect(INTERNAL_ERROR).toEqual({
      kind: 'internal',
      reason: 'internal-failure',
      message: 'an unexpected internal failure stopped the command',
    });
  });
});

describe('help fallbacks', () => {
  it('shows VALUE for a string option without a placeholder, in the usage line and the option list (red: the option prints with no value)', async () => {
    vi.resetModules();
    const { commandHelp, usageLine } = await import('../../src/cli/help.js');
    const command = {
      name: 'demo',
      summary: 's',
      description: 'd',
      options: { name: { type: 'string', required: true, help: 'a name' } },
      output: 'o',
      run: () => 0 as const,
    } as const;
    expect(usageLine(command)).toBe('cursorhooks demo --name VALUE [options]');
    expect(commandHelp(command)).toMatch(/\n {2}--name VALUE +a name\n/);
  });
});

describe('plan request specs', () => {
  it('refuses a spec whose selector is not a string as a usage error naming specs (red: a bad selector reaches the planner)', async () => {
    vi.resetModules();
    const { run } = await import('../../src/cli/run.js');
    let stderr = '';
    const request = { operation: 'install', specs: [{ executable: '/opt/a', selector: 5 }] };
    const code = await run(['plan'], new TextEncoder().encode(JSON.stringify(request)), {
      stdout: () => {},
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(2);
    expect(JSON.parse(stderr).error).toMatchObject({ reason: 'field-type', field: 'specs' });
  });
});
