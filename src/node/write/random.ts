// node:crypto loaded on first use: loading it is a visible share of a short call's start-up, and
// the calls that never write (status, plan, --dry-run) never need a random name.

/** `bytes` random bytes as lowercase hex. */
export async function randomHex(bytes: number): Promise<string> {
  const { randomBytes } = await import('node:crypto');
  return randomBytes(bytes).toString('hex');
}
