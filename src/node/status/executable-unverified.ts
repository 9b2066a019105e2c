// The host kit's executable-unverified refusal, which knows which host path check decided it.
// Its own file so the path checks stay free of the error classes and the CLI's error output can
// recognise it by reason and shape without evaluating host-kit code.
import { ConflictError } from '../../errors/errors.js';
import type { HostPathCheck } from './path-report.js';

/** `executable-unverified`, carrying the check that decided it, so a host can name it first. */
export class ExecutableUnverifiedError extends ConflictError {
  readonly check: HostPathCheck;

  constructor(check: HostPathCheck) {
    super('executable-unverified');
    this.check = check;
  }
}
