import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  CursorHooksError,
  createPlannerContainer,
  DarwinUserShell20260918,
  errorIs,
  HookPlanner,
  LinuxUserShell32212,
  Operation,
  type PlanRequest,
  plan,
  Receipt,
  type ReceiptJSON,
  verifyOwned,
  WindowsPowerShellStop20261001,
} from '../../src/index.js';
import { MAX_DOCUMENT_BYTES } from '../../src/limits.js';
import { readDocument } from '../../src/planner/request.js';
import { thrownBy, utf8 } from '../support/common.js';
import {
  bytes,
  expectError,
  expectOk,
  installed,
  OTHER_SPEC,
  ownerRequests,
  refused,
  removeReq,
  req,
  SPEC,
  updateReq,
  WRITE,
} from './support.js';

const { document, receipt } = installed({ version: 1, hooks: { stop: [] } });
const removed = expectOk(plan(removeReq(document, receipt))).desired;

describe('Request validation', () => {
  it('exposes the SPEC operation strings, or hosts built against the contract send unknown operations', () => {
    expect(Operation).toEqual({
      Install: 'install',
      Update: 'update',
      Remove: 'remove',
      Repair: 'repair',
    });
  });

  it.each([
    ['missing', undefined],
    ['false', false],
    ["'true'", 'true'],
    ['1', 1],
    ['null', null],
  ])(
    'refuses Install, Update and Repair with executableVerified %s as executable-unverified, or an unattested executable is written',
    (_name, executableVerified) => {
      const extra = { ...WRITE, executableVerified };
      refused(
        req(Operation.Install, bytes({ version: 1 }), extra),
        'executable-unverified',
        'conflict',
      );
      refused(
        req(Operation.Update, document, { ...extra, specs: [OTHER_SPEC], previous: receipt }),
        'executable-unverified',
        'conflict',
      );
      refused(
        req(Operation.Repair, removed, { ...extra, previous: receipt }),
        'executable-unverified',
        'conflict',
      );
      // Remove needs no attestation: its executable may be gone already.
      expectOk(plan(req(Operation.Remove, document, { executableVerified, previous: receipt })));
    },
  );

  it.each([
    ['"Install"', 'Install'],
    ['"INSTALL"', 'INSTALL'],
    ['"verify"', 'verify'],
    ['""', ''],
    ['undefined', undefined],
    ['null', null],
    ['0', 0],
    ['a symbol', Symbol('install')],
    ['a boxed string', Object('install')],
    ['an object with toString', { toString: () => 'install' }],
  ])(
    'refuses operation %s with operation-unknown, or an unknown operation falls through to a default',
    (_name, operation) => {
      const request = {
        ...WRITE,
        document,
        previous: receipt,
        operation,
      } as unknown as PlanRequest;
      refused(request, 'operation-unknown', 'conflict');
    },
  );

  const garbage: readonly (readonly [string, unknown])[] = [
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', 'install'],
    ['an array', [Operation.Install]],
    ['a function', () => Operation.Install],
    ['document as a string', { ...WRITE, operation: Operation.Install, document: '{"version":1}' }],
    ['document as a number[]', { ...WRITE, operation: Operation.Install, document: [123, 125] }],
    [
      'document as an ArrayBuffer',
      { ...WRITE, operation: 'install', document: new ArrayBuffer(2) },
    ],
    [
      'document as a DataView',
      { ...WRITE, operation: 'install', document: new DataView(new ArrayBuffer(2)) },
    ],
    ['document as a Uint16Array', { ...WRITE, operation: 'install', document: new Uint16Array(2) }],
    [
      'a proxy whose getters throw',
      new Proxy(
        {},
        {
          get() {
            throw new Error('getter exploded');
          },
        },
      ),
    ],
    [
      'a request with a throwing document getter',
      Object.defineProperty({ ...WRITE, operation: 'install' }, 'document', {
        enumerable: true,
        get() {
          throw new RangeError('document getter');
        },
      }),
    ],
    [
      'specs as a proxy whose getters throw',
      {
        ...WRITE,
        operation: 'install',
        specs: new Proxy([], {
          get() {
            throw new Error('specs exploded');
          },
        }),
      },
    ],
    [
      'a spec with a throwing getter',
      {
        ...WRITE,
        operation: 'install',
        specs: [
          Object.defineProperty({ selector: SPEC.selector }, 'executable', {
            enumerable: true,
            get() {
              throw new Error('executable exploded');
            },
          }),
        ],
      },
    ],
    [
      'previous as a proxy whose traps throw',
      {
        ...WRITE,
        operation: 'update',
        document,
        previous: new Proxy(
          {},
          {
            getPrototypeOf() {
              throw new Error('prototype exploded');
            },
            ownKeys() {
              throw new Error('keys exploded');
            },
          },
        ),
      },
    ],
    [
      'a revoked proxy request',
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
    ],
    ['a frozen empty object', Object.freeze({})],
  ];

  it.each(garbage)(
    'never throws for %s and returns a Conflict refusal without a receipt, or plan breaks its never-throws contract',
    (_name, request) => {
      let result: ReturnType<typeof plan> | undefined;
      expect(() => {
        result = plan(request as PlanRequest);
      }).not.toThrow();
      expect(result?.conflict).toBe(true);
      expect(errorIs(result?.error, ConflictError)).toBe(true);
      expect(result?.error).toBeInstanceOf(CursorHooksError);
      expect(result?.receipt).toBeUndefined();
      expect(result?.desired).toBeInstanceOf(Uint8Array);
    },
  );

  it('refuses a non-object request with request-malformed and a non-Uint8Array document with document-malformed, or hosts cannot tell which field is wrong', () => {
    expectError(plan(null as unknown as PlanRequest).error, 'request-malformed', 'conflict');
    expectError(
      plan({ ...WRITE, operation: 'install', document: 'x' } as unknown as PlanRequest).error,
      'document-malformed',
      'conflict',
    );
  });

  it('refuses a typed array other than Uint8Array with document-malformed, or 16-bit or signed views are read as bytes', () => {
    for (const document of [new Int16Array(4), new Int8Array(4), new Uint8ClampedArray(4)]) {
      expectError(
        plan({ ...WRITE, operation: 'install', document } as unknown as PlanRequest).error,
        'document-malformed',
        'conflict',
      );
    }
  });

  it('copies shared memory up to the size limit and no other input, or another thread can change the bytes mid-plan', () => {
    const sharedOf = (length: number) => new Uint8Array(new SharedArrayBuffer(length));
    for (const length of [13, MAX_DOCUMENT_BYTES]) {
      const view = sharedOf(length);
      view[0] = 0x7b;
      const read = readDocument(view);
      expect(read.buffer, `${length} bytes`).not.toBeInstanceOf(SharedArrayBuffer);
      // Compared as bytes in one call: toEqual walks a multi-megabyte array element by element.
      expect(Buffer.compare(read, view), `${length} bytes`).toBe(0);
    }
    // Oversized input is refused on its length alone, so it stays a view.
    const oversized = sharedOf(MAX_DOCUMENT_BYTES + 1);
    expect(readDocument(oversized).buffer).toBe(oversized.buffer);
    const plain = utf8('{"version":1}');
    expect(readDocument(plain).buffer).toBe(plain.buffer);
  });

  it('stops following a cause chain after 32 links, or a cyclic chain hangs errorIs', () => {
    const chain = (length: number, last: Error): Error => {
      let error = last;
      for (let i = 1; i < length; i++) error = new Error('link', { cause: error });
      return error;
    };
    expect(errorIs(chain(32, new ConflictError('file-changed')), ConflictError)).toBe(true);
    expect(errorIs(chain(33, new ConflictError('file-changed')), ConflictError)).toBe(false);
    const cyclic = new Error('a');
    cyclic.cause = new Error('b', { cause: cyclic });
    expect(errorIs(cyclic, ConflictError)).toBe(false);
  });

  it('refuses foreign throwables as unexpected-failure without their message, or a getter message leaks into the error', () => {
    const request = new Proxy(
      {},
      {
        get() {
          throw new Error('SECRET /home/u/path');
        },
      },
    );
    const { error } = plan(request as PlanRequest);
    expectError(error, 'unexpected-failure', 'conflict');
    expect(JSON.stringify(error) + String(error) + String(error?.cause)).not.toContain('SECRET');
  });

  it('throws only ConflictError from verifyOwned for garbage arguments, or hosts receive raw TypeErrors', () => {
    const cases: readonly (readonly [unknown, unknown])[] = [
      [null, receipt],
      ['{"version":1}', receipt],
      [document, null],
      [document, 'receipt'],
      [
        document,
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw new Error('x');
            },
          },
        ),
      ],
      [new Proxy(new Uint8Array(2), {}), receipt],
    ];
    for (const [doc, previous] of cases) {
      const error = thrownBy(() => verifyOwned(doc as Uint8Array, previous as ReceiptJSON));
      expect(errorIs(error, ConflictError)).toBe(true);
    }
  });

  it('refuses Install with shells outside the registry as Unsupported, or an unqualified grammar writes a command', () => {
    refused(
      req(Operation.Install, undefined, { ...WRITE, shell: 'cursor-windows-unqualified' }),
      'shell-unsupported',
      'unsupported',
    );
    refused(
      req(Operation.Install, undefined, { ...WRITE, shell: WindowsPowerShellStop20261001 }),
      'path-forward-slash',
      'unsupported',
    );
    refused(
      req(Operation.Install, undefined, {
        ...WRITE,
        specs: [{ executable: 'relative/agent', selector: SPEC.selector }],
      }),
      'path-not-absolute',
      'unsupported',
    );
    refused(
      req(Operation.Install, undefined, {
        ...WRITE,
        specs: [{ executable: SPEC.executable, selector: '/home/u/$HOME/x' }],
      }),
      'argv-forbidden-character',
      'unsupported',
    );
  });
});

describe('Container', () => {
  it('lists the three built-in contracts in order, or hosts display or resolve the wrong contracts', () => {
    const planner = createPlannerContainer().get(HookPlanner);
    expect(planner.contracts().map((contract) => contract.id)).toEqual([
      LinuxUserShell32212,
      DarwinUserShell20260918,
      WindowsPowerShellStop20261001,
    ]);
  });

  it('plans exactly like the module-level plan and verifyOwned, or the default container is wired differently', () => {
    const planner = createPlannerContainer().get(HookPlanner);
    const requests: PlanRequest[] = [
      req(Operation.Install, undefined, WRITE),
      req(Operation.Install, bytes({ version: 1, hooks: { stop: [] } }), WRITE),
      ...ownerRequests(document, receipt).map(([, request]) => request),
      ...ownerRequests(removed, receipt).map(([, request]) => request),
      updateReq(document, receipt),
      req('bogus', document),
      req(Operation.Install, utf8('{"version":2}'), WRITE),
    ];
    for (const request of requests) {
      const viaContainer = planner.plan(request);
      const viaModule = plan(request);
      expect(viaContainer.error?.reason).toBe(viaModule.error?.reason);
      expect(viaContainer.noOp).toBe(viaModule.noOp);
      expect([...viaContainer.desired]).toEqual([...viaModule.desired]);
      expect(viaContainer.receipt?.toJSON()).toEqual(viaModule.receipt?.toJSON());
    }
    expect(() => planner.verifyOwned(document, receipt)).not.toThrow();
    expect(thrownBy(() => planner.verifyOwned(removed, receipt))).toBeInstanceOf(ConflictError);
    expect(Receipt.fromJSON(receipt.toJSON())).toBeInstanceOf(Receipt);
  });
});
