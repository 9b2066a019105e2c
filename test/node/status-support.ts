// What the status suites share: readStatus on a workspace, with doctor's other sources in the
// workspace rather than the machine's, so a report depends on nothing else; and an install
// beside a foreign entry.
import { readStatus, type StatusOptions } from '../../src/node/status/status.js';
import { installedWorkspace, type Where } from './support.js';

export const FOREIGN = '{"version":1,"hooks":{"stop":[{"command":"foreign"}]},"other":true}';

export const status = (where: Where, extra: Partial<StatusOptions> = {}) =>
  readStatus({
    hooksFile: where.hooks,
    ledger: where.ledger,
    sources: { home: where.dir, enterpriseFile: null },
    ...extra,
  });

/** A workspace whose hook file holds FOREIGN and, installed beside it, the owned entry. */
export const installed = () => installedWorkspace(FOREIGN);
