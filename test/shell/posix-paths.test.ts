import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { DarwinCliShellContract } from '../../contracts/darwin-cli-2026.09.18.js';
import { LinuxUserShellContract } from '../../contracts/linux-user-3.22.12.js';
import { UnsupportedError } from '../../src/errors/errors.js';
import type { ErrorReason } from '../../src/errors/reasons.js';
import type { PathRole } from '../../src/shell/contract.js';
import { expectRefusal } from './refusal.js';

const ROLES: readonly PathRole[] = ['executable', 'selector'];

describe.each([
  ['Linux', new LinuxUserShellContract()],
  ['Darwin', new DarwinCliShellContract()],
])('%s canonical paths', (_name, contract) => {
  const refuses = (path: unknown, reason: ErrorReason) => {
    for (const role of ROLES) {
      expectRefusal(
        () => contract.assertCanonicalPath(path as string, role),
        UnsupportedError,
        reason,
      );
    }
  };

  it.each([
    '/a',
    '/TEST owned/bin/agent-notifications',
    "/home/o'brien/control/hooks binding.json",
    '/opt/.hidden/...x/..y/a..b/x.',
    '/tmp/*?[] !#~;|&<>(){}/"q"\\/é 中 😀',
  ])('accepts %j for both roles, or valid host paths are refused', (path) => {
    for (const role of ROLES) expect(() => contract.assertCanonicalPath(path, role)).not.toThrow();
  });

  it.each(['', 'a', 'bin/agent', './agent', '../agent', '~/agent', ' /agent', '\\agent'])(
    'refuses %j as not absolute, or a path resolves against the hook cwd (~/.cursor)',
    (path) => refuses(path, 'path-not-absolute'),
  );

  it.each(['/', '//', '///'])(
    'refuses %j as the root itself, or the root runs as a program',
    (path) => refuses(path, 'path-root-alias'),
  );

  it.each(['/a/', '/a/b//', '/a/./'])(
    'refuses %j with a trailing slash, or a directory spelling of the path is accepted',
    (path) => refuses(path, 'path-trailing-separator'),
  );

  it.each(['//a', '/a//b', '///a/b'])(
    'refuses %j with an empty segment, or two spellings of one file both pass',
    (path) => refuses(path, 'path-empty-segment'),
  );

  it.each(['/.', '/..', '/a/./b', '/a/../b', '/a/.', '/a/..', '/../etc/agent'])(
    'refuses %j with a dot segment, or the path is not canonical',
    (path) => refuses(path, 'path-dot-segment'),
  );

  it.each([
    ['NUL', '/a\u0000b'],
    ['LF', '/a\nb'],
    ['CR', '/a\rb'],
    ['dollar', '/a$HOME/b'],
    ['backtick', '/a`id`/b'],
  ])('refuses a path holding %s, or it reaches the shell through the path', (_label, path) =>
    refuses(path, 'argv-forbidden-character'),
  );

  it('refuses a path with an unpaired surrogate, or a path that is not UTF-8 is written', () => {
    refuses('/a/\ud800', 'argv-unpaired-surrogate');
  });

  it('refuses a 4,097-byte path, or an oversize path reaches the shell', () => {
    refuses(`/${'é'.repeat(2047)}ab`, 'argv-token-too-long');
    expect(() => contract.assertCanonicalPath(`/${'é'.repeat(2047)}a`, 'executable')).not.toThrow();
  });

  it.each([42, null, undefined, ['/a']])(
    'refuses the non-string %j, or a non-string path is stringified',
    (path) => refuses(path, 'argv-malformed'),
  );
});
