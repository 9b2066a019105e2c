// The facade the CLI bundle puts in place of node:os (scripts/build-cli.mjs): each name gives
// what node:os gives, once the module is loaded on the first call.
import * as os from 'node:os';
import { describe, expect, it } from 'vitest';
import * as onDemand from '../../src/cli/os-on-demand.js';

describe('os-on-demand', () => {
  it("gives node:os's host name, home and temporary directories and errno table (red: the bundle's locks name another host, its default hook file another home, simulate-stop's Windows payload file another directory, or xattr errors lose their code)", () => {
    expect(onDemand.hostname()).toBe(os.hostname());
    expect(onDemand.homedir()).toBe(os.homedir());
    expect(onDemand.tmpdir()).toBe(os.tmpdir());
    expect(onDemand.constants.errno).toBe(os.constants.errno);
    expect(onDemand.constants.errno.ENOENT).toBe(2);
  });
});
