import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { MAX_REQUEST_BYTES } from '../../src/cli/stdin.js';
import { utf8 } from '../support/common.js';
import { base64, cli, expectUsageError, failure, installRequest, output } from './support.js';

// Planted in every bad input: no message may repeat it. It is not name-like, so even an
// unknown option or field spelt this way is not named.
const CANARY = '/CANARY 7d2e';

describe('cursorhooks usage errors on the command line', () => {
  it.each([
    ['no command', ['--json'], 'command-missing', {}],
    ['an unknown command', ['--json', CANARY.slice(1)], 'command-unknown', {}],
    ['an unknown tool option', [`--${CANARY}`, '--json'], 'option-unknown', {}],
    ['a misspelt tool option', ['--jsn', '--json'], 'option-unknown', { option: '--jsn' }],
    ['an argument to plan', ['plan', CANARY], 'argument-unexpected', {}],
    ['an argument to verify', ['verify', CANARY], 'argument-unexpected', {}],
    ['an argument to contracts', ['contracts', '--json', CANARY], 'argument-unexpected', {}],
    ['a misspelt plan option', ['plan', '--dry'], 'option-unknown', { option: '--dry' }],
    // Red: a name every object inherits (constructor, toString, __proto__) is taken for a
    // declared option and refused as one without a value.
    [
      'an option named like an inherited property',
      ['status', '--constructor', 'x', '--json'],
      'option-unknown',
      { option: '--constructor' },
    ],
    ['a tool option named __proto__', ['--__proto__', '--json'], 'option-unknown', {}],
    [
      'a value for --json',
      ['contracts', `--json=${CANARY}`],
      'option-value-unexpected',
      { option: '--json' },
    ],
    [
      'render-argv tokens before --',
      ['render-argv', '--json', '--shell', 'x', CANARY],
      'argument-unexpected',
      {},
    ],
    [
      'render-argv without --shell',
      ['render-argv', '--json', '--', CANARY],
      'option-required',
      { option: '--shell' },
    ],
    [
      '--shell without a value',
      ['render-argv', '--json', '--shell'],
      'option-value-missing',
      { option: '--shell' },
    ],
    [
      '--shell followed by --',
      ['render-argv', '--json', '--shell', '--', CANARY],
      'option-value-missing',
      { option: '--shell' },
    ],
    [
      '--shell twice',
      ['render-argv', '--json', '--shell', 'a', `--shell=${CANARY}`, '--'],
      'option-repeated',
      { option: '--shell' },
    ],
    [
      'a misspelt render-argv option',
      ['render-argv', '--json', '--shel', 'x', '--'],
      'option-unknown',
      { option: '--shel' },
    ],
    ['help with two commands', ['help', '--json', 'plan', 'verify'], 'argument-unexpected', {}],
    ['help for an unknown command', ['help', '--json', CANARY], 'command-unknown', {}],
  ])(
    'exits 2 with one JSON error for %s (red: bad arguments run, crash, or echo input)',
    async (_, args, reason, subject) => {
      const outcome = await cli(args);
      expectUsageError(outcome, reason, subject);
      expect(outcome.stderr).not.toContain('CANARY');
    },
  );

  it('names a misspelt option in the message, or a typo is hard to find (red: message is generic)', async () => {
    const error = expectUsageError(await cli(['plan', '--shel']), 'option-unknown', {
      option: '--shel',
    });
    expect(error.message).toBe('unknown option --shel');
  });

  it('prints one plain line without --json, or text users get JSON they did not ask for', async () => {
    const outcome = await cli(['contracts', CANARY]);
    expect(outcome).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'cursorhooks: this command takes no arguments [argument-unexpected]\n',
    });
  });

  it('prints JSON errors for plan and verify without --json, or their only output format breaks', async () => {
    expectUsageError(await cli(['plan', '--bogus']), 'option-unknown', { option: '--bogus' });
    expectUsageError(await cli(['verify'], '{'), 'request-not-json');
  });
});

describe('cursorhooks usage errors in a request', () => {
  it.each([
    ['empty stdin', '', 'request-empty', {}],
    ['whitespace only', ' \n', 'request-empty', {}],
    ['bad JSON', `{"document": "${CANARY}",}`, 'request-not-json', {}],
    ['a JSON array', `["${CANARY}"]`, 'request-not-object', {}],
    ['JSON null', 'null', 'request-not-object', {}],
    ['an unknown non-name field', `{"${CANARY}": true}`, 'field-unknown', {}],
    [
      'a misspelt field',
      '{"operation": "install", "shel": "x"}',
      'field-unknown',
      { field: 'shel' },
    ],
    ['no operation', '{}', 'field-required', { field: 'operation' }],
    ['a numeric operation', '{"operation": 1}', 'field-type', { field: 'operation' }],
    ['an unknown operation', `{"operation": "${CANARY}"}`, 'field-type', { field: 'operation' }],
    [
      'an object document',
      '{"operation": "install", "document": {}}',
      'field-type',
      { field: 'document' },
    ],
    [
      'a numeric documentBase64',
      '{"operation": "install", "documentBase64": 42}',
      'field-type',
      { field: 'documentBase64' },
    ],
    [
      'executableVerified "true"',
      '{"operation": "install", "executableVerified": "true"}',
      'field-type',
      { field: 'executableVerified' },
    ],
    [
      'specs not an array',
      '{"operation": "install", "specs": "x"}',
      'field-type',
      { field: 'specs' },
    ],
    [
      'a spec with a number',
      '{"operation": "install", "specs": [{"executable": 1, "selector": "/s"}]}',
      'field-type',
      { field: 'specs' },
    ],
    [
      'a spec with an extra key',
      '{"operation": "install", "specs": [{"executable": "/e", "selector": "/s", "x": 1}]}',
      'field-type',
      { field: 'specs' },
    ],
    ['a numeric shell', '{"operation": "install", "shell": 7}', 'field-type', { field: 'shell' }],
    [
      'a string receipt',
      '{"operation": "remove", "previous": "receipt"}',
      'field-type',
      { field: 'previous' },
    ],
    [
      'both document forms',
      `{"operation": "install", "document": "{}", "documentBase64": "${base64('{}')}"}`,
      'field-conflict',
      { field: 'documentBase64' },
    ],
    [
      'invalid base64',
      `{"operation": "install", "documentBase64": "${CANARY}!!"}`,
      'field-encoding',
      { field: 'documentBase64' },
    ],
    [
      'unpadded base64',
      '{"operation": "install", "documentBase64": "e30"}',
      'field-encoding',
      { field: 'documentBase64' },
    ],
    [
      'base64url',
      `{"operation": "install", "documentBase64": "${base64('{"a":"??>"}').replaceAll('+', '-')}"}`,
      'field-encoding',
      { field: 'documentBase64' },
    ],
    [
      'base64 with a line break',
      '{"operation": "install", "documentBase64": "e30=\\n"}',
      'field-encoding',
      { field: 'documentBase64' },
    ],
    [
      'non-zero padding bits',
      '{"operation": "install", "documentBase64": "e31="}',
      'field-encoding',
      { field: 'documentBase64' },
    ],
    [
      'an unpaired surrogate in document text',
      '{"operation": "install", "document": "{\\"v\\":\\"\\ud800\\"}"}',
      'field-encoding',
      { field: 'document' },
    ],
  ])(
    'exits 2 for a plan request with %s, naming the field (red: a type error becomes a lifecycle refusal or echoes input)',
    async (_, stdin, reason, subject) => {
      const outcome = await cli(['plan'], stdin);
      expectUsageError(outcome, reason, subject);
      expect(outcome.stderr).not.toContain('CANARY');
    },
  );

  it('names the misspelt field and the fields plan takes (red: a typo gives a generic message)', async () => {
    const error = expectUsageError(await cli(['plan'], '{"shel": "x"}'), 'field-unknown', {
      field: 'shel',
    });
    expect(error.message).toMatch(/unknown field `shel`; it takes document, .*shell/);
  });

  it('exits 2 for a request that is not UTF-8 (red: binary stdin is decoded lossily)', async () => {
    expectUsageError(await cli(['plan'], new Uint8Array([0x7b, 0xff, 0x7d])), 'request-not-utf8');
  });

  it.each([
    ['bad JSON', '{', 'request-not-json', {}],
    [
      'a plan field',
      '{"operation": "install", "receipt": {}}',
      'field-unknown',
      { field: 'operation' },
    ],
    ['no receipt', '{"document": null}', 'field-required', { field: 'receipt' }],
    ['a numeric document', '{"document": 1, "receipt": {}}', 'field-type', { field: 'document' }],
    ['a null receipt', '{"receipt": null}', 'field-type', { field: 'receipt' }],
  ])(
    'exits 2 for a verify request with %s (red: verify reads requests less strictly than plan)',
    async (_, stdin, reason, subject) => {
      expectUsageError(await cli(['verify'], stdin), reason, subject);
    },
  );

  it('exits 2 for stdin one byte past the cap (red: the request size is unbounded)', async () => {
    const outcome = await cli(['plan'], new Uint8Array(MAX_REQUEST_BYTES + 1));
    expect(expectUsageError(outcome, 'request-too-large').message).toMatch(/exceeds 9 MiB/);
  });

  it('accepts a request of exactly the cap and lets the planner judge it (red: the cap is off by one)', async () => {
    const request = JSON.stringify({ ...installRequest(null), shell: '' });
    const padded = `${request.slice(0, -1)}${' '.repeat(MAX_REQUEST_BYTES - request.length)}}`;
    const error = failure(await cli(['plan'], padded), 1);
    expect(error.reason).toBe('shell-unsupported');
  });

  it('stops reading an endless stdin just past the cap (red: oversized input is read to the end)', async () => {
    const chunk = new Uint8Array(1024 * 1024);
    let pulled = 0;
    let returned = false;
    const endless: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          pulled++;
          return { done: false, value: chunk };
        },
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    expectUsageError(await cli(['plan'], endless), 'request-too-large');
    expect(pulled).toBe(MAX_REQUEST_BYTES / chunk.length + 1);
    expect(returned).toBe(true);
  });

  it('exits 74 when stdin fails while being read (red: a stream error is a usage error or a stack trace)', async () => {
    const failing: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          throw new Error(`EIO ${CANARY}`);
        },
      }),
    };
    const outcome = await cli(['verify'], failing);
    expect(failure(outcome, 74)).toEqual({
      kind: 'io',
      reason: 'stdin-unreadable',
      message: 'the request could not be read from stdin',
    });
    expect(outcome.stderr).not.toContain('CANARY');
  });

  it('exits 70 with one error when something unexpected throws (red: an internal failure escapes run)', async () => {
    let stderr = '';
    const code = await run(['contracts', '--json'], utf8(''), {
      stdout: () => {
        throw new Error(`broken ${CANARY}`);
      },
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(70);
    expect(JSON.parse(stderr)).toEqual({
      error: {
        kind: 'internal',
        reason: 'internal-failure',
        message: 'an unexpected internal failure stopped the command',
      },
    });
  });

  it('still plans a request whose fields are all well typed (red: the field checks refuse valid input)', async () => {
    expect(output(await cli(['plan'], JSON.stringify(installRequest(null)))).noOp).toBe(false);
  });
});
