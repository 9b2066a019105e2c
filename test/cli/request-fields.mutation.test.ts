// Request decoding edges: a JSON value that is not an object, and `previous` given as null or
// as an object, which the field check must accept.
import { describe, expect, it } from 'vitest';
import { cli, installRequest } from './support.js';

describe('plan requests', () => {
  it.each(['5', '"install"', 'true'])(
    'refuses %s as not an object (red: a scalar request is read as an object without fields)',
    async (stdin) => {
      const outcome = await cli(['plan'], stdin);
      expect(outcome.exitCode).toBe(2);
      expect(JSON.parse(outcome.stderr).error.reason).toBe('request-not-object');
    },
  );

  it.each([null, {}])(
    'takes previous %j past the field check (red: a null or object previous is refused as a field type)',
    async (previous) => {
      const outcome = await cli(['plan'], JSON.stringify({ ...installRequest(null), previous }));
      expect(JSON.parse(outcome.stderr || '{"error":{}}').error.reason).not.toBe('field-type');
    },
  );
});
