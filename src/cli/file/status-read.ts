// Status as a CLI command reads it: the command's files, planner, spec and metadata flag, through
// the synchronous seam. `status` and every refused command's next step read it the same way.
import type { HookSpec } from '../../domain/hook-spec.js';
import type { HookStatus, StatusIntent, StatusPlanner } from '../../node/status/status.js';
import type { OptionValues } from '../command.js';
import { metadataLossOf } from './options.js';

export interface StatusRead {
  readonly hooksFile: string;
  readonly ledger: string;
  readonly planner: StatusPlanner;
  readonly spec?: HookSpec | undefined;
  readonly shell?: string | undefined;
  readonly options: OptionValues;
  readonly intent?: StatusIntent;
  /** Run the host path checks too (status does; a refusal's step need not). */
  readonly checkPaths?: boolean;
}

export async function readCliStatus(read: StatusRead): Promise<HookStatus> {
  const { hooksFile, ledger, planner, spec, shell, options, intent } = read;
  // Loaded on demand: a file command that succeeds never evaluates status.
  const [{ readStatus }, { blockingFs }] = await Promise.all([
    import('../../node/status/status.js'),
    import('../../node/write/fs-seam.js'),
  ]);
  // A refusal's step needs no host path checks: they are loaded only for status itself.
  const checkHostPaths =
    read.checkPaths === true
      ? (await import('../../node/status/path-checks.js')).checkHostPaths
      : undefined;
  return readStatus({
    hooksFile,
    ledger,
    planner,
    fs: blockingFs,
    ...metadataLossOf(options),
    ...(spec === undefined ? {} : { spec }),
    ...(shell === undefined ? {} : { shell }),
    ...(intent === undefined ? {} : { intent }),
    ...(checkHostPaths === undefined
      ? {}
      : { checkHostPaths: (checked: HookSpec) => checkHostPaths(checked, { fs: blockingFs }) }),
  });
}
