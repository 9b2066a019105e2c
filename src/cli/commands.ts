import type { CommandEntry } from './command.js';

/**
 * The command table, in the order help lists it. A new command is one file and one line. Each
 * module is imported only when its command runs (or help describes them all): the bundle puts
 * each in a chunk of its own, and `--version` loads none of them.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'plan', load: async () => (await import('./commands/plan.js')).planCommand },
  { name: 'verify', load: async () => (await import('./commands/verify.js')).verifyCommand },
  {
    name: 'render-argv',
    load: async () => (await import('./commands/render-argv.js')).renderArgvCommand,
  },
  {
    name: 'contracts',
    load: async () => (await import('./commands/contracts.js')).contractsCommand,
  },
  { name: 'install', load: async () => (await import('./commands/install.js')).installCommand },
  { name: 'update', load: async () => (await import('./commands/update.js')).updateCommand },
  { name: 'remove', load: async () => (await import('./commands/remove.js')).removeCommand },
  { name: 'repair', load: async () => (await import('./commands/repair.js')).repairCommand },
  { name: 'release', load: async () => (await import('./commands/release.js')).releaseCommand },
  { name: 'disable', load: async () => (await import('./commands/disable.js')).disableCommand },
  { name: 'enable', load: async () => (await import('./commands/enable.js')).enableCommand },
  { name: 'status', load: async () => (await import('./commands/status.js')).statusCommand },
  { name: 'doctor', load: async () => (await import('./commands/doctor.js')).doctorCommand },
  {
    name: 'simulate-stop',
    load: async () => (await import('./commands/simulate-stop.js')).simulateStopCommand,
  },
  { name: 'qualify', load: async () => (await import('./commands/qualify.js')).qualifyCommand },
  { name: 'help', load: async () => (await import('./commands/help.js')).helpCommand },
];
