import { describe, expect, it } from 'vitest';
import { bytesOf } from '../support/common.js';
import {
  base64,
  COMMAND,
  ENTRY,
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
      desiredBase64: base64(expected),
      receipt: {
        version: 1,
        event: 'stop',
        spec: SPEC,
        shell: SHELL,
        entryDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        remainderDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      },
      noOp: false,
      conflict: false,
      error: null,
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
    expect(Buffer.from(result.desiredBase64, 'base64').toString('utf8')).toBe(expected);
  });

  it('refuses a non-UTF-8 document with desired null and the input bytes as desiredBase64 (red: invalid bytes are decoded lossily)', async () => {
    const bytes = bytesOf('{"version":1,"x":"', [0xff], '"}');
    const { document: _text, ...rest } = installRequest(null);
    const outcome = await plan({ ...rest, documentBase64: base64(bytes) });
    expect(outcome.exitCode).toBe(1);
    expect(output(outcome)).toEqual({
      desired: null,
      desiredBase64: base64(bytes),
      receipt: null,
      noOp: true,
      conflict: true,
      error: {
        kinds: ['conflict', 'unsupported'],
        reason: 'document-not-utf8',
        message: 'the document is not strict UTF-8',
      },
    });
  });

  it('keeps a refused leading byte-order mark in desired text (red: the text decoder strips the BOM)', async () => {
    const text = `\uFEFF${pretty(FOREIGN)}`;
    const { document: _text, ...rest } = installRequest(null);
    const result = output(await plan({ ...rest, documentBase64: base64(text) }));
    expect(result.error?.reason).toBe('document-bom');
    expect(result.desired).toBe(text);
  });

  it.each([
    ['executableVerified "yes"', { executableVerified: 'yes' }, 'executable-unverified'],
    ['no executableVerified', { executableVerified: undefined }, 'executable-unverified'],
    ['an unknown operation', { operation: 'reinstall' }, 'operation-unknown'],
    ['a missing operation', { operation: undefined }, 'operation-unknown'],
    ['specs not an array', { specs: 'x' }, 'spec-malformed'],
    ['a spec with a number', { specs: [{ executable: 1, selector: '/s' }] }, 'spec-malformed'],
    ['a garbage receipt', { previous: { version: 1 } }, 'receipt-malformed'],
    ['shell as a number', { shell: 7 }, 'shell-unsupported'],
  ])(
    'passes %s through to the planner, which refuses it with exit 1 (red: a field type is judged by the CLI instead)',
    async (_, fields, reason) => {
      const outcome = await plan({ ...installRequest(null), ...fields });
      expect(outcome.exitCode).toBe(1);
      const result = output(outcome);
      expect(result.error?.reason).toBe(reason);
      expect(result.conflict).toBe(true);
      expect(result.receipt).toBeNull();
    },
  );

  it('names every kind of a refusal from its cause chain (red: kinds is not decided with errorIs)', async () => {
    const installed = output(await plan(installRequest(pretty(FOREIGN))));
    const absent = output(
      await plan({ document: pretty(FOREIGN), operation: 'remove', previous: installed.receipt }),
    );
    expect(absent.error).toEqual({
      kinds: ['conflict', 'absence-unproven'],
      reason: 'owner-absent',
      message: expect.any(String),
    });
    const unknownShell = output(await plan({ ...installRequest(null), shell: 'cursor-bogus' }));
    expect(unknownShell.error?.kinds).toEqual(['conflict', 'unsupported']);
    const exists = output(
      await plan(installRequest(pretty({ version: 1, hooks: { stop: [{ command: COMMAND }] } }))),
    );
    expect(exists.error).toMatchObject({ kinds: ['conflict'], reason: 'command-exists' });
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
    expect(outcome.exitCode).toBe(1);
    const { error } = output(outcome);
    expect(JSON.stringify(error)).not.toContain('CANARY');
  });
});
