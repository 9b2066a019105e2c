// Opt-in clean-up on interrupt. A library must not take over a host's signals, so nothing here
// runs until the host (the CLI) asks: then SIGINT, SIGTERM and SIGHUP remove this process's side
// files and the signal is raised again with its default disposition, so the process still dies
// by that signal (a shell sees 130 for Ctrl-C, not a clean exit).
import { removeTrackedSideFiles } from './side-file-registry.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

let installed = false;

/** Installs the handlers (once); the returned function removes them again. */
export function removeSideFilesOnInterrupt(): () => void {
  if (!installed) {
    for (const signal of SIGNALS) process.on(signal, onSignal);
    installed = true;
  }
  return uninstall;
}

function uninstall(): void {
  for (const signal of SIGNALS) process.removeListener(signal, onSignal);
  installed = false;
}

function onSignal(signal: NodeJS.Signals): void {
  removeTrackedSideFiles();
  uninstall();
  process.kill(process.pid, signal);
}
