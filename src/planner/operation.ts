export const Operation = {
  Install: 'install',
  Update: 'update',
  Remove: 'remove',
  Repair: 'repair',
} as const;

export type Operation = (typeof Operation)[keyof typeof Operation];
