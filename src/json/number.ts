/**
 * True exactly when a valid JSON number lexeme denotes the value 1, decided by decimal
 * arithmetic on the digits (never floating point): `1`, `1.0`, `1e0`, `10e-1`, `0.1E1` are one.
 *
 * The lexeme is digits × 10^(exponent − fraction length). Stripping the digits to their
 * significant core (without leading and trailing zeros) leaves core × 10^shift, which is 1
 * iff core is "1" and shift is 0. The shift is bounded by the lexeme length, so an exponent
 * written with more digits than any possible shift is decided without ever converting it.
 */
export function isExactlyOne(lexeme: string): boolean {
  if (lexeme.startsWith('-')) return false;
  const match = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?)(\d+))?$/.exec(lexeme);
  if (match === null) return false;
  const integer = match[1] as string;
  const fraction = match[2] ?? '';
  const digits = integer + fraction;
  const first = firstNonZero(digits);
  if (first < 0 || digits.charCodeAt(first) !== 0x31) return false;
  const last = lastNonZero(digits);
  if (last !== first) return false;
  // digits = 0…01 followed by (digits.length − 1 − first) zeros.
  const trailingZeros = digits.length - 1 - first;
  const requiredExponent = fraction.length - trailingZeros;
  const exponentDigits = (match[4] ?? '0').replace(/^0+(?=\d)/, '');
  // |requiredExponent| < lexeme length ≤ 4 MiB, i.e. at most 7 digits.
  if (exponentDigits.length > 8) return false;
  const exponent = Number(exponentDigits) * (match[3] === '-' ? -1 : 1);
  return exponent === requiredExponent;
}

function firstNonZero(digits: string): number {
  for (let i = 0; i < digits.length; i++) if (digits.charCodeAt(i) !== 0x30) return i;
  return -1;
}

function lastNonZero(digits: string): number {
  for (let i = digits.length - 1; i >= 0; i--) if (digits.charCodeAt(i) !== 0x30) return i;
  return -1;
}
