import {
  DarwinUserShell20260918,
  type HookSpec,
  LinuxUserShell32212,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import type { Layout } from './hook-file.js';

export interface Fixture {
  /** Relative to the repository root. */
  readonly path: string;
  readonly layout: Layout;
  readonly describe: string;
}

/** One contract's lifecycle. The expected command lines are spelled out so readers see them. */
export interface Contract {
  readonly shell: string;
  readonly spec: HookSpec;
  readonly installCommand: string;
  readonly updatedSelector: string;
  readonly updateCommand: string;
}

export interface Scenario {
  readonly contract: Contract;
  readonly fixture: Fixture;
}

const USER_HOOKS: Fixture = {
  path: 'fixtures/documents/user-hooks.json',
  layout: { indent: '  ', eol: '\n' },
  describe: '2-space indent, LF',
};

const USER_HOOKS_CRLF_TABS: Fixture = {
  path: 'fixtures/documents/user-hooks-crlf-tabs.json',
  layout: { indent: '\t', eol: '\r\n' },
  describe: 'tab indent, CRLF',
};

const LINUX: Contract = {
  shell: LinuxUserShell32212,
  spec: {
    executable: '/opt/Agent Tools/bin/agent-notify',
    selector: "/home/o'neil/Agent Bindings/stop.json",
  },
  installCommand: `'/opt/Agent Tools/bin/agent-notify' 'cursor-event' 'stop' '--binding' '/home/o'"'"'neil/Agent Bindings/stop.json'`,
  updatedSelector: "/home/o'neil/Agent Bindings/stop-v2.json",
  updateCommand: `'/opt/Agent Tools/bin/agent-notify' 'cursor-event' 'stop' '--binding' '/home/o'"'"'neil/Agent Bindings/stop-v2.json'`,
};

const DARWIN: Contract = {
  shell: DarwinUserShell20260918,
  spec: {
    executable: "/Applications/Agent's Helper.app/Contents/MacOS/agent-notify",
    selector: '/Users/dev/Library/Application Support/Agent/stop.json',
  },
  installCommand: `'/Applications/Agent'"'"'s Helper.app/Contents/MacOS/agent-notify' 'cursor-event' 'stop' '--binding' '/Users/dev/Library/Application Support/Agent/stop.json'`,
  updatedSelector: '/Users/dev/Library/Application Support/Agent/stop-v2.json',
  updateCommand: `'/Applications/Agent'"'"'s Helper.app/Contents/MacOS/agent-notify' 'cursor-event' 'stop' '--binding' '/Users/dev/Library/Application Support/Agent/stop-v2.json'`,
};

const WINDOWS: Contract = {
  shell: WindowsPowerShellStop20261001,
  spec: {
    executable: String.raw`C:\Program Files\Agent\agent.exe`,
    selector: String.raw`C:\Users\O'Neil\AppData\Roaming\Agent\stop.json`,
  },
  installCommand: String.raw`& 'C:\Program Files\Agent\agent.exe' 'cursor-event' 'stop' '--binding' 'C:\Users\O''Neil\AppData\Roaming\Agent\stop.json'`,
  updatedSelector: String.raw`C:\Users\O'Neil\AppData\Roaming\Agent\stop-v2.json`,
  updateCommand: String.raw`& 'C:\Program Files\Agent\agent.exe' 'cursor-event' 'stop' '--binding' 'C:\Users\O''Neil\AppData\Roaming\Agent\stop-v2.json'`,
};

/**
 * What `npm run demo` runs through the built CLI: each contract once, since every step there
 * starts a Node process. Windows gets the CRLF file a Windows editor would leave.
 */
export const DEMO_SCENARIOS: readonly Scenario[] = [
  { contract: LINUX, fixture: USER_HOOKS },
  { contract: DARWIN, fixture: USER_HOOKS_CRLF_TABS },
  { contract: WINDOWS, fixture: USER_HOOKS_CRLF_TABS },
];

/** Every contract over every fixture; cheap in-process, so the test runs all of them. */
export const ALL_SCENARIOS: readonly Scenario[] = [LINUX, DARWIN, WINDOWS].flatMap((contract) =>
  [USER_HOOKS, USER_HOOKS_CRLF_TABS].map((fixture) => ({ contract, fixture })),
);
