import { describe, expect, it } from 'vitest';
import { base64, cli, installRequest, output, plan, pretty } from './support.js';

async function installed(): Promise<{ document: string; receipt: unknown }> {
  const result = output(await plan(installRequest(pretty({ version: 1 }))));
  return { document: result.desired ?? '', receipt: result.receipt };
}

function verify(request: unknown) {
  return cli(['verify'], JSON.stringify(request));
}

describe('cursorhooks verify', () => {
  it('prints owned true with exit 0 for the intact entry (red: verify rejects its own install)', async () => {
    const outcome = await verify(await installed());
    expect(outcome.exitCode).toBe(0);
    expect(output(outcome)).toEqual({ owned: true });
  });

  it('verifies a documentBase64 the same as text (red: base64 is ignored by verify)', async () => {
    const { document, receipt } = await installed();
    const outcome = await verify({ documentBase64: base64(document), receipt });
    expect(output(outcome)).toEqual({ owned: true });
  });

  it('prints owned false with the reason and exit 1 for a changed timeout (red: tampering verifies)', async () => {
    const { document, receipt } = await installed();
    const outcome = await verify({
      document: document.replace('"timeout": 5', '"timeout": 6'),
      receipt,
    });
    expect(outcome.exitCode).toBe(1);
    expect(output(outcome)).toEqual({
      owned: false,
      error: {
        kinds: ['conflict'],
        reason: 'owner-modified',
        message: 'the owned entry was changed since the receipt was issued',
      },
    });
  });

  it('refuses an absent document as unproven absence (red: a missing file counts as owned)', async () => {
    const { receipt } = await installed();
    const outcome = await verify({ document: null, receipt });
    expect(outcome.exitCode).toBe(1);
    expect(output<{ error: { kinds: string[] } }>(outcome).error.kinds).toEqual([
      'conflict',
      'absence-unproven',
    ]);
  });

  it('passes a missing receipt to the library, which refuses it with exit 1 (red: the CLI makes it a usage error)', async () => {
    const outcome = await verify({ document: pretty({ version: 1 }) });
    expect(outcome.exitCode).toBe(1);
    expect(output<{ error: { reason: string } }>(outcome).error.reason).toBe('receipt-malformed');
  });
});
