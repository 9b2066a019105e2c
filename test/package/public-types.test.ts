import { describe, expectTypeOf, it } from 'vitest';
import type { DocumentPosition, ErrorReason, PathRole, ShellContract } from '../../src/index.js';
import { CursorHooksError } from '../../src/index.js';

// Type-level checks: `npm test` typechecks this file, so an unexported type fails the build.
describe('public types named in public signatures', () => {
  it('exports ErrorReason as the type of CursorHooksError.reason, or hosts cannot name it', () => {
    expectTypeOf<CursorHooksError['reason']>().toEqualTypeOf<ErrorReason>();
    expectTypeOf(new CursorHooksError('owner-absent').reason).toEqualTypeOf<ErrorReason>();
  });

  it('exports DocumentPosition as the type of CursorHooksError.at, or hosts cannot name it', () => {
    expectTypeOf<CursorHooksError['at']>().toEqualTypeOf<DocumentPosition | undefined>();
  });

  it("exports PathRole as assertCanonicalPath's role, or host contracts cannot type it", () => {
    expectTypeOf<Parameters<ShellContract['assertCanonicalPath']>[1]>().toEqualTypeOf<PathRole>();
    expectTypeOf<PathRole>().toEqualTypeOf<'executable' | 'selector'>();
  });
});
