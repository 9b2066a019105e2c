// Issue 10: the refusals real files meet most (no `version`; comments or trailing commas, as
// editors that accept JSONC allow) tell the user what to change, without quoting the file.

import { describe, expect, it } from 'vitest';
import { LinuxUserShell32212, Operation, plan } from '../../src/index.js';
import { utf8 } from '../support/common.js';
import { REAL_WORLD_FILES as FILES } from './real-world-files.js';

describe('refusals of real-world files explain the fix', () => {
  it.each(FILES)(
    '%s is refused with a message naming the change to make and nothing from the file, or the user is left guessing',
    (_label, text, reason, advice) => {
      const result = plan({
        document: utf8(text),
        operation: Operation.Install,
        specs: [{ executable: '/opt/a/bin/agent', selector: '/opt/a/sel' }],
        shell: LinuxUserShell32212,
        executableVerified: true,
      });
      expect(result.error?.reason).toBe(reason);
      expect(result.error?.message).toMatch(advice);
      expect(result.error?.message).not.toContain('MARKER');
    },
  );
});
