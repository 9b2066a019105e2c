import { describe, expect, it } from 'vitest';
import { base64, cli, failure, installRequest, output, plan, pretty } from './support.js';

async function installed(): Promise<{ document: string; receipt: unknown }> {
  const result = output(await plan(installRequest(pretty({ version: 1 }))));
  return { document: result.desired, receipt: result.receipt };
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

  it('refuses a changed timeout with exit 1 and the error on stderr alone (red: tampering verifies)', async () => {
    const { document, receipt } = await installed();
    const outcome = await verify({
      document: document.replace('"timeout": 5', '"timeout": 6'),
      receipt,
    });
    expect(failure(outcome, 1)).toEqual({
      kind: 'conflict',
      reason: 'owner-modified',
      message: 'the owned entry was changed since the receipt was issued',
    });
  });

  it('refuses an absent document as unproven absence (red: a missing file counts as owned)', async () => {
    const { receipt } = await installed();
    const outcome = await verify({ document: null, receipt });
    expect(failure(outcome, 1).kind).toBe('absence-unproven');
  });

  it('passes a receipt object with bad fields to the library, which refuses it with exit 1 (red: the CLI judges receipt contents)', async () => {
    const outcome = await verify({ document: pretty({ version: 1 }), receipt: { version: 1 } });
    expect(failure(outcome, 1).reason).toBe('receipt-malformed');
  });
});
