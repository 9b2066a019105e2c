// node:os as the CLI bundle sees it (scripts/build-cli.mjs swaps it in for the real module):
// the module loads on the first call that needs it. Loading it costs a call about 0.4 ms, and
// most calls never ask for the host name, the home or temporary directory or an errno name. The build fails
// if a source imports a name this file does not give.
import type * as os from 'node:os';

let loaded: typeof os | undefined;
const real = (): typeof os => {
  loaded ??= require('node:os') as typeof os;
  return loaded;
};

export const hostname = (): string => real().hostname();
export const homedir = (): string => real().homedir();
export const tmpdir = (): string => real().tmpdir();
export const constants = {
  get errno(): typeof os.constants.errno {
    return real().constants.errno;
  },
};
