// The ACL and extended-attribute tools the metadata tests drive (Debian packages acl and attr).
import { execFileSync } from 'node:child_process';

/** Runs `name` with `args`; its stdout. */
export const tool = (name: string, ...args: string[]): string =>
  execFileSync(name, args, { encoding: 'utf8' });

function hasTools(): boolean {
  try {
    tool('getfacl', '--version');
    tool('getfattr', '--version');
    return true;
  } catch {
    return false;
  }
}

/** Whether getfacl and getfattr run here. */
export const aclToolsHere = hasTools();
