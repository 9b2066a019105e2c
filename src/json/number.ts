/**
 * True exactly when a valid JSON number lexeme denotes the value 1, decided on the digits
 * (never floating point): `1`, `1.0`, `1e0`, `10e-1`, `0.1E1` are one, `-1` and `1.1` are not.
 *
 * The lexeme is digits × 10^(exponent − fraction length). That is 1 exactly when the digits
 * are a single 1 among zeros, and the exponent equals the fraction length less the zeros
 * after the 1. Both patterns run in linear time, however long the lexeme.
 */
export function isExactlyOne(lexeme: string): boolean {
  const number = /^(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(lexeme);
  if (number === null) return false;
  const fraction = number[2] ?? '';
  const core = /^0*1(0*)$/.exec((number[1] as string) + fraction);
  if (core === null) return false;
  const requiredExponent = fraction.length - (core[1] as string).length;
  // An exponent too large to convert exactly never rounds to the required value, which is
  // smaller than the lexeme is long.
  return Number(number[3] ?? 0) === requiredExponent;
}
