// Where Cursor keeps the user hook file. Every kit entry point also takes an explicit path.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** `<home>/.cursor/hooks.json`, home from the OS unless given. */
export function defaultHooksPath(home: string = homedir()): string {
  return join(home, '.cursor', 'hooks.json');
}
