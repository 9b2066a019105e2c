// The PowerShell stop grammar: how a contract of the `powershell-stop` family renders the
// five-token stop invocation and which Windows paths it takes. The built-in Windows contract and
// the family of that name (families.ts) both run this one code.
import { UnsupportedError } from '../../errors/errors.js';
import type { PathRole } from '../contract.js';
import { isStopArgv } from '../stop-invocation.js';
import { assertArgvTokens } from '../tokens.js';
import type { Grammar } from './grammar.js';

const DRIVE_ABSOLUTE = /^[A-Za-z]:\\/;
// `/` is refused on its own before this scan, so it is not repeated here.
const RESERVED_CHARACTER = /[<>:"|?*]/;
// PowerShell reads U+2018–U+201B as single quotes and U+201C–U+201E as double quotes.
const QUOTE_LOOKALIKE = /[\u2018-\u201e]/;
// Device names Windows resolves in any directory, also with an extension; ¹²³ count as digits.
// The `i` flag without `u` folds ASCII only, so no non-ASCII letter can fold into a match.
const RESERVED_DEVICE =
  /^(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])$/i;
// `[\s\S]`, not `.`: a name holding a line terminator still ends in `.exe` (its control
// character is refused earlier, under its own reason).
const EXE_NAME = /^[\s\S]+\.exe$/i;
// PowerShell's call operator reads `[` and `]` as a wildcard pattern and, when no file has the
// literal name, may start another one (PowerShell/PowerShell#4726).
const WILDCARD = /[[\]]/;

export const powershellStop: Grammar = Object.freeze({
  /**
   * Renders only `<exe> cursor-event stop --binding <selector>`, each token in PowerShell single
   * quotes behind the call operator. Both paths must pass assertCanonicalPath: that is what keeps
   * quote look-alikes out of the output (pwsh's parser closes single quotes at U+2018 to U+201B;
   * the double-quote ones are literal there and refused as a margin).
   */
  render(argv: readonly string[]): string {
    assertArgvTokens(argv);
    if (!isStopArgv(argv)) throw new UnsupportedError('argv-shape-unsupported');
    // isStopArgv fixed the length at five, so neither fallback is ever used.
    powershellStop.assertCanonicalPath(argv[0] ?? '', 'executable');
    powershellStop.assertCanonicalPath(argv[4] ?? '', 'selector');
    return `& ${argv.map(quoteToken).join(' ')}`;
  },

  /**
   * A local drive-absolute path with backslash separators. Checks run in this fixed order and
   * the first failure names the reason: token rules; `\\` namespace forms (UNC, `\\?\`, `\\.\`);
   * any `/`; the `X:\` prefix; the bare drive root; then over everything after `X:\`, character
   * by character from the left: control character, quote look-alike, reserved character; for
   * the executable, a wildcard bracket; then
   * segment by segment from the left: empty (trailing or inner), `.`/`..`, trailing dot or space,
   * reserved device name; finally, for the executable, the `.exe` name.
   */
  assertCanonicalPath(path: string, role: PathRole): void {
    assertArgvTokens([path]);
    if (path.startsWith('\\\\')) throw new UnsupportedError('path-unc');
    if (path.includes('/')) throw new UnsupportedError('path-forward-slash');
    if (!DRIVE_ABSOLUTE.test(path)) throw new UnsupportedError('path-not-absolute');
    const rest = path.slice(3);
    if (rest === '') throw new UnsupportedError('path-root-alias');
    if (hasControlCharacter(rest)) throw new UnsupportedError('path-control-character');
    if (QUOTE_LOOKALIKE.test(rest)) throw new UnsupportedError('path-quote-lookalike');
    if (RESERVED_CHARACTER.test(rest)) throw new UnsupportedError('path-reserved-character');
    if (role === 'executable' && WILDCARD.test(rest)) {
      throw new UnsupportedError('path-wildcard-character');
    }
    const segments = rest.split('\\');
    segments.forEach((segment, index) => {
      assertSegment(segment, index === segments.length - 1);
    });
    if (role === 'executable' && !EXE_NAME.test(segments.at(-1) ?? '')) {
      throw new UnsupportedError('executable-not-exe');
    }
  },
});

// C0 controls, DEL and C1 controls (NEL, U+0085, among them), and the line and paragraph
// separators U+2028/U+2029: none is a usable file name character, and each either is invisible
// or ends a line to some reader of the command.
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || (unit >= 0x7f && unit <= 0x9f) || unit === 0x2028 || unit === 0x2029) {
      return true;
    }
  }
  return false;
}

function assertSegment(segment: string, last: boolean): void {
  if (segment === '') {
    throw new UnsupportedError(last ? 'path-trailing-separator' : 'path-empty-segment');
  }
  if (segment === '.' || segment === '..') throw new UnsupportedError('path-dot-segment');
  // Windows silently strips a trailing dot or space, so the file opened is not the one named.
  if (segment.endsWith('.') || segment.endsWith(' ')) {
    throw new UnsupportedError('path-segment-trailing-dot-or-space');
  }
  // The device check looks at the name before the first dot, less trailing spaces (`CON .txt`).
  const base = segment.split('.', 1)[0]?.replace(/ +$/, '') ?? '';
  if (RESERVED_DEVICE.test(base)) throw new UnsupportedError('path-reserved-device-name');
}

// Inside PowerShell single quotes only the apostrophe is special; it is written twice.
function quoteToken(token: string): string {
  return `'${token.replaceAll("'", "''")}'`;
}
