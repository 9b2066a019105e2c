// How a kit outcome's error leaves the CLI: a changed file as `changed`, a file-system failure as
// `io` naming only what the kit named, anything else as the library refusal it is.
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.js';
import { failureJSON, failureOf } from '../../src/cli/file/failure.js';
import { ConflictError } from '../../src/errors/errors.js';
import { FileChangedError, HostIOError, TargetMovedError } from '../../src/node/errors.js';

const HOLDER = { pid: 7, hostname: 'box', acquiredAt: '2026-01-01T00:00:00.000Z' };

describe('failureOf', () => {
  // Red: a changed file not mapped to the `changed` kind, or with another reason or message.
  it.each([new FileChangedError(), new TargetMovedError()])(
    'makes %s a changed CliError',
    (error) => {
      const failure = failureOf(error);
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toMatchObject({
        kind: 'changed',
        reason: 'file-changed',
        message: error.message,
      });
      expect((failure as CliError).subject).toStrictEqual({});
    },
  );

  // Red: a detail of a host failure dropped, or an unknown one set (even to undefined).
  it.each([
    [{}, {}],
    [{ role: 'ledger' }, { role: 'ledger' }],
    [{ path: '/l' }, { path: '/l' }],
    [{ holder: HOLDER }, { holder: HOLDER }],
    [
      { role: 'lock', path: '/l.lock', holder: HOLDER },
      { role: 'lock', path: '/l.lock', holder: HOLDER },
    ],
  ] as const)('makes a host failure with %j an io CliError with subject %j', (details, subject) => {
    const error = new HostIOError('lock-timeout', 'EBUSY', details);
    const failure = failureOf(error);
    expect(failure).toBeInstanceOf(CliError);
    expect(failure).toMatchObject({ kind: 'io', reason: 'lock-timeout', message: error.message });
    expect((failure as CliError).subject).toStrictEqual(subject);
  });

  // Red: a library refusal turned into a CliError (it exits 1 as it is).
  it('passes any other error through as it is', () => {
    const error = new ConflictError('json-syntax');
    expect(failureOf(error)).toBe(error);
  });
});

describe('failureJSON', () => {
  // Red: the CLI shape and the refusal shape swapped.
  it('gives a CLI failure its kind and subject, a refusal its library kind', () => {
    expect(
      failureJSON(new HostIOError('io-failure', 'EIO', { role: 'ledger', path: '/l' })),
    ).toStrictEqual({
      kind: 'io',
      reason: 'io-failure',
      message: new HostIOError('io-failure').message,
      role: 'ledger',
      path: '/l',
    });
    expect(failureJSON(new ConflictError('json-syntax'))).toStrictEqual({
      kind: 'conflict',
      reason: 'json-syntax',
      message: new ConflictError('json-syntax').message,
    });
  });
});
