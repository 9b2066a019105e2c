import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import { MAX_REQUEST_BYTES } from '../../src/cli/stdin.js';
import { utf8 } from '../support/common.js';
import { base64, cli, expectUsageError, installRequest, output } from './support.js';

// Planted in every bad input: no usage message may repeat it.
const CANARY = 'CANARY7d2e';

describe('cursorhooks usage errors', () => {
  it.each([
    ['no command', [], /missing command/],
    ['an unknown command', [CANARY], /unknown command/],
    ['an unknown top-level option', [`--${CANARY}`], /unknown option/],
    ['an argument to plan', ['plan', CANARY], /plan takes no arguments/],
    ['an argument to verify', ['verify', CANARY], /verify takes no arguments/],
    ['an argument to contracts', ['contracts', CANARY], /contracts takes no arguments/],
    ['render-argv without --', ['render-argv', '--shell', CANARY, CANARY], /needs --/],
    ['render-argv without --shell', ['render-argv', '--', CANARY], /needs --shell/],
    ['--shell without a value', ['render-argv', '--shell', '--', CANARY], /needs a contract id/],
    [
      '--shell twice',
      ['render-argv', '--shell', CANARY, `--shell=${CANARY}`, '--'],
      /more than once/,
    ],
    ['an unknown render-argv option', ['render-argv', `--${CANARY}`, '--'], /takes only --shell/],
  ])(
    'exits 2 with one stderr line for %s (red: bad arguments run, crash or echo input)',
    async (_, args, message) => {
      const outcome = await cli(args);
      expectUsageError(outcome, message);
      expect(outcome.stderr).not.toContain(CANARY);
    },
  );

  it.each([
    ['empty stdin', '', /no request on stdin/],
    ['whitespace only', ' \n', /no request on stdin/],
    ['bad JSON', `{"document": "${CANARY}",}`, /not valid JSON/],
    ['a JSON array', `["${CANARY}"]`, /not a JSON object/],
    ['JSON null', 'null', /not a JSON object/],
    ['an unknown field', `{"${CANARY}": true}`, /does not take/],
    ['a numeric document', '{"document": 42}', /document is not a string/],
    ['a numeric documentBase64', '{"documentBase64": 42}', /documentBase64 is not a string/],
    ['both document forms', `{"document": "{}", "documentBase64": "${base64('{}')}"}`, /both/],
    ['invalid base64', `{"documentBase64": "${CANARY}!!"}`, /not canonical padded base64/],
    ['unpadded base64', '{"documentBase64": "e30"}', /not canonical padded base64/],
    ['base64url', `{"documentBase64": "${base64('{"a":"??>"}').replaceAll('+', '-')}"}`, /base64/],
    ['base64 with a line break', `{"documentBase64": "e30=\\n"}`, /base64/],
    ['non-zero padding bits', '{"documentBase64": "e31="}', /base64/],
    [
      'an unpaired surrogate in document text',
      '{"document": "{\\"v\\":\\"\\ud800\\"}"}',
      /surrogate/,
    ],
  ])(
    'exits 2 for a plan request with %s (red: an unreadable request reaches the planner)',
    async (_, stdin, message) => {
      const outcome = await cli(['plan'], stdin);
      expectUsageError(outcome, message);
      expect(outcome.stderr).not.toContain(CANARY);
    },
  );

  it('exits 2 for a request that is not UTF-8 (red: stdin bytes are decoded lossily)', async () => {
    expectUsageError(await cli(['plan'], new Uint8Array([0x7b, 0xff, 0x7d])), /not UTF-8/);
  });

  it.each([
    ['bad JSON', '{', /not valid JSON/],
    ['a plan field', '{"operation": "install"}', /does not take/],
    ['a numeric document', '{"document": 1, "receipt": null}', /document is not a string/],
  ])(
    'exits 2 for a verify request with %s (red: verify reads requests less strictly than plan)',
    async (_, stdin, message) => {
      expectUsageError(await cli(['verify'], stdin), message);
    },
  );

  it('exits 2 for stdin one byte past the cap (red: the request size is unbounded)', async () => {
    const outcome = await cli(['plan'], new Uint8Array(MAX_REQUEST_BYTES + 1));
    expectUsageError(outcome, /exceeds 9 MiB/);
  });

  it('accepts a request of exactly the cap and lets the planner judge it (red: the cap is off by one)', async () => {
    const request = JSON.stringify({ ...installRequest(null), shell: '' });
    const padded = `${request.slice(0, -1)}${' '.repeat(MAX_REQUEST_BYTES - request.length)}}`;
    const outcome = await cli(['plan'], padded);
    expect(outcome.exitCode).toBe(1);
    expect(output(outcome).error?.reason).toBe('shell-unsupported');
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
    expectUsageError(await cli(['plan'], endless), /exceeds/);
    expect(pulled).toBe(MAX_REQUEST_BYTES / chunk.length + 1);
    expect(returned).toBe(true);
  });

  it('exits 2 when stdin fails while being read (red: a stream error surfaces as a stack trace)', async () => {
    const failing: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          throw new Error(`EIO ${CANARY}`);
        },
      }),
    };
    const outcome = await cli(['verify'], failing);
    expectUsageError(outcome, /could not be read/);
    expect(outcome.stderr).not.toContain(CANARY);
  });

  it('exits 70 with one stderr line when something unexpected throws (red: an internal failure escapes run)', async () => {
    let stderr = '';
    const code = await run(['contracts'], utf8(''), {
      stdout: () => {
        throw new Error(`broken pipe ${CANARY}`);
      },
      stderr: (text) => {
        stderr += text;
      },
    });
    expect(code).toBe(70);
    expect(stderr).toBe('cursorhooks: an unexpected internal failure stopped the command\n');
  });
});
