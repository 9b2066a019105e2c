import { describe, expect, it } from 'vitest';
import { bytesOf } from '../support/common.js';
import {
  base64,
  COMMAND,
  ENTRY,
  failure,
  installRequest,
  output,
  plan,
  pretty,
  SHELL,
  SPEC,
} from './support.js';

const FOREIGN = { version: 1, hooks: { afterFileEdit: [{ command: './format.sh' }] } };

describe('cursorhooks plan', () => {
  it('writes a new document and a receipt for an absent file (red: absent handling or the result shape breaks)', async () => {
    const outcome = await plan(installRequest(null));
    expect(outcome.exitCode).toBe(0);
    const result = output(outcome);
    const expected = pretty({ version: 1, hooks: { stop: [ENTRY] } });
    expect(result).toEqual({
      desired: expected,
      receipt: {
        version: 1,
        event: 'stop',
        spec: SPEC,
        shell: SHELL,
        entryDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        remainderDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
      noOp: false,
    });
  });

  it.each([
    ['document null', { document: null }],
    ['no document field', {}],
    ['empty document text', { document: '' }],
    ['empty documentBase64', { documentBase64: '' }],
    ['documentBase64 null beside document null', { document: null, documentBase64: null }],
  ])(
    'treats %s as an absent file (red: an absent form is refused or misread)',
    async (_, document) => {
      const { document: _text, ...rest } = installRequest(null);
      const outcome = await plan({ ...rest, ...document });
      expect(outcome.exitCode).toBe(0);
      expect(output(outcome).desired).toBe(pretty({ version: 1, hooks: { stop: [ENTRY] } }));
    },
  );

  it('round-trips install, update, remove and repair through JSON (red: a receipt or document does not survive the CLI)', async () => {
    const original = pretty(FOREIGN);
    const installed = output(await plan(installRequest(original)));
    expect(installed.desired).toBe(
      pretty({ ...FOREIGN, hooks: { ...FOREIGN.hooks, stop: [ENTRY] } }),
    );

    const newSpec = { ...SPEC, selector: "/home/o'neil/bindings/stop-v2.json" };
    const updatedOutcome = await plan({
      document: installed.desired,
      operation: 'update',
      specs: [newSpec],
      previous: installed.receipt,
      shell: SHELL,
      executableVerified: true,
    });
    expect(updatedOutcome.exitCode).toBe(0);
    const updated = output(updatedOutcome);
    expect(updated.desired).toContain('stop-v2.json');
    expect(updated.receipt?.spec).toEqual(newSpec);

    const removedOutcome = await plan({
      document: updated.desired,
      operation: 'remove',
      previous: updated.receipt,
    });
    expect(removedOutcome.exitCode).toBe(0);
    const removed = output(removedOutcome);
    expect(removed.receipt).toBeNull();
    expect(removed.desired).toBe(pretty({ ...FOREIGN, hooks: { ...FOREIGN.hooks, stop: [] } }));

    const repairedOutcome = await plan({
      document: removed.desired,
      operation: 'repair',
      previous: updated.receipt,
      executableVerified: true,
    });
    expect(repairedOutcome.exitCode).toBe(0);
    const repaired = output(repairedOutcome);
    expect(repaired.desired).toBe(updated.desired);
    expect(repaired.receipt).toEqual(updated.receipt);

    const again = output(
      await plan({
        ...installRequest(repaired.desired),
        specs: [newSpec],
        previous: repaired.receipt,
      }),
    );
    expect(again).toMatchObject({
      noOp: true,
      desired: repaired.desired,
      receipt: repaired.receipt,
    });
  });

  it('plans on documentBase64 bytes and returns CRLF bytes unchanged around the edit (red: base64 input is decoded wrongly)', async () => {
    const crlf = `${JSON.stringify(FOREIGN, null, '\t').replaceAll('\n', '\r\n')}\r\n`;
    const { document: _text, ...rest } = installRequest(null);
    const outcome = await plan({ ...rest, documentBase64: base64(crlf) });
    expect(outcome.exitCode).toBe(0);
    const result = output(outcome);
    const expected = `${JSON.stringify({ ...FOREIGN, hooks: { ...FOREIGN.hooks, stop: [ENTRY] } }, null, '\t').replaceAll('\n', '\r\n')}\r\n`;
    expect(result.desired).toBe(expected);
  });

  it('refuses a non-UTF-8 document with the error alone, never the bytes (red: a refusal echoes the document)', async () => {
    const bytes = bytesOf('{"version":1,"x":"', [0xff], '"}');
    const { document: _text, ...rest } = installRequest(null);
    const outcome = await plan({ ...rest, documentBase64: base64(bytes) });
    expect(failure(outcome, 1)).toEqual({
      kind: 'unsupported',
      reason: 'document-not-utf8',
      message: 'the document is not strict UTF-8',
      at: { offset: 18, line: 1, column: 19 },
    });
  });

  it('never echoes a refused 4 MiB document (red: a refusal prints megabytes of input)', async () => {
    const big = `{"version":2,"x":"${'a'.repeat(4 * 1024 * 1024 - 40)}"}`;
    const outcome = await plan(installRequest(big));
    expect(failure(outcome, 1).reason).toBe('version-unsupported');
    expect(outcome.stderr.length).toBeLessThan(300);
  });

  it.each([
    ['no executableVerified', { executableVerified: undefined }, 'executable-unverified'],
    ['executableVerified false', { executableVerified: false }, 'executable-unverified'],
    ['two specs', { specs: [SPEC, SPEC] }, 'spec-count'],
    ['a garbage receipt', { previous: { version: 1 } }, 'receipt-malformed'],
    ['an unknown shell', { shell: 'cursor-bogus' }, 'shell-unsupported'],
  ])(
    'passes %s, well typed, to the planner, which refuses it with exit 1 (red: a value is judged by the CLI instead)',
    async (_, fields, reason) => {
      const error = failure(await plan({ ...installRequest(null), ...fields }), 1);
      expect(error.reason).toBe(reason);
    },
  );

  it('gives every refusal its most specific kind from the cause chain (red: kind is not decided with errorIs)', async () => {
    const installed = output(await plan(installRequest(pretty(FOREIGN))));
    const absent = failure(
      await plan({ document: pretty(FOREIGN), operation: 'remove', previous: installed.receipt }),
      1,
    );
    expect(absent).toEqual({
      kind: 'absence-unproven',
      reason: 'owner-absent',
      message: expect.any(String),
    });
    const unknownShell = failure(await plan({ ...installRequest(null), shell: 'cursor-bogus' }), 1);
    expect(unknownShell.kind).toBe('unsupported');
    const exists = failure(
      await plan(installRequest(pretty({ version: 1, hooks: { stop: [{ command: COMMAND }] } }))),
      1,
    );
    expect(exists).toMatchObject({ kind: 'conflict', reason: 'command-exists' });
  });

  it('never echoes document or spec strings in a refusal (red: an error message leaks input)', async () => {
    const canary = '/CANARY-1f3a';
    const outcome = await plan({
      document: `{"version":2,"${canary}":1}`,
      operation: 'install',
      specs: [{ executable: canary, selector: canary }],
      shell: SHELL,
      executableVerified: true,
    });
    expect(failure(outcome, 1).reason).toBe('version-unsupported');
    expect(outcome.stderr).not.toContain('CANARY');
  });
});
