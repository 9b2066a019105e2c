import type { PathRole, QualificationEvidence, ShellContract } from '../src/shell/contract.js';
import { posixSingleQuote } from '../src/shell/grammars/posix-single-quote.js';

/**
 * The single-quote grammar qualified for both the Linux and the Darwin user hook shells: the
 * shell layer's posix-single-quote grammar, bound by each subclass to one build's evidence.
 */
export abstract class PosixSingleQuoteContract implements ShellContract {
  abstract readonly id: string;
  abstract readonly evidence: QualificationEvidence;
  readonly family = 'posix-single-quote';

  render(argv: readonly string[]): string {
    return posixSingleQuote.render(argv);
  }

  assertCanonicalPath(path: string, role: PathRole): void {
    posixSingleQuote.assertCanonicalPath(path, role);
  }
}
