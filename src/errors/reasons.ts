// The fixed message table. Every refusal carries one of these reasons, and its message is
// looked up here, so no message can ever echo a path, key or value from the caller's input.

export const REASON_MESSAGES = {
  // Document encoding, grammar and limits (UnsupportedError).
  'document-too-large': 'the document exceeds the 4 MiB size limit',
  'document-too-deep': 'the document nests containers deeper than 64 levels',
  'document-too-many-nodes': 'the document holds more than 65,536 nodes',
  'document-not-utf8': 'the document is not strict UTF-8',
  'document-bom': 'the document starts with a byte-order mark',
  'json-syntax':
    'the document is not strict RFC 8259 JSON: remove comments and trailing commas, and write keys and strings in double quotes',
  'json-duplicate-key': 'an object in the document repeats a key',
  'root-not-object': 'the document root is not an object',
  'version-missing':
    'the document root has no version member: add "version": 1 as a top-level member',
  'version-unsupported': 'the document version is not the number 1',
  'hooks-not-object': 'the hooks member is not an object',
  'event-not-array': 'a hooks event is not an array',
  'output-too-large': 'the planned document would exceed the 4 MiB size limit',
  'output-too-deep': 'the planned document would nest deeper than 64 levels',
  'output-too-many-nodes': 'the planned document would hold more than 65,536 nodes',

  // Shell contracts and argv (UnsupportedError).
  'shell-unsupported': 'the shell contract is not registered: it is unknown or unqualified',
  'argv-malformed': 'the argv is not an array of strings',
  'argv-too-many-tokens': 'the argv holds more than 32 tokens',
  'argv-token-too-long': 'an argv token exceeds 4,096 UTF-8 bytes',
  'argv-too-long': 'the argv exceeds 16,384 UTF-8 bytes in total',
  'argv-forbidden-character': 'an argv token holds NUL, CR, LF, a dollar sign or a backtick',
  'argv-unpaired-surrogate': 'an argv token holds an unpaired surrogate and is not valid UTF-8',
  'argv-shape-unsupported': 'the contract renders only the fixed five-token stop invocation',
  'path-not-absolute': 'a path is not absolute',
  'path-root-alias': 'a path names the root directory itself',
  'path-empty-segment': 'a path has an empty segment',
  'path-dot-segment': 'a path has a "." or ".." segment',
  'path-trailing-separator': 'a path ends with a separator',
  'path-unc': 'a path uses a UNC or device-namespace form',
  'path-forward-slash': 'a Windows path uses a forward slash',
  'path-segment-trailing-dot-or-space': 'a Windows path segment ends with a dot or a space',
  'path-reserved-character': 'a Windows path holds one of < > : " / | ? * after the drive',
  'path-control-character': 'a path holds a control character',
  'path-reserved-device-name': 'a Windows path segment is a reserved device name',
  'path-quote-lookalike': 'a path holds a typographic quote that PowerShell treats as a quote',
  'executable-not-exe': 'the Windows executable does not end in .exe',
  // Hardening (SPEC section 9): an empty argv, and PowerShell's wildcard characters.
  'argv-empty': 'the argv holds no tokens',
  'path-wildcard-character':
    'a Windows executable path holds [ or ], which PowerShell reads as a wildcard',

  // Qualification records (UnsupportedError): a record made on the user's machine is refused
  // as a contract unless it is exactly what a probe records.
  'record-malformed':
    'the qualification record does not have exactly the record fields with valid values',
  'record-version-unsupported': 'the qualification record has a version this library does not know',
  'record-family-unknown': 'the qualification record names no known grammar family',
  'record-id-malformed':
    'the qualification record id is not lower-case words joined by dots or dashes, at most 128 characters',
  'record-id-builtin': 'the qualification record claims the id of a built-in contract',
  'record-command-mismatch':
    "the qualification record's command is not its family's rendering of its argv",
  'record-argv-mismatch': 'the argv the recorder saw differs from the argv the probe intended',
  'record-event-not-stop': 'the recorded invocation was not a stop event',
  'record-version-mismatch':
    "the qualification record's evidence names another version than the one Cursor reported",

  // The qualification probe (cursorhooks/node, `qualify`): refusals that leave the probe as it
  // is, so `qualify status` can name the way on.
  'qualify-family-unknown': 'the family is not a known grammar family',
  'qualify-family-other-platform':
    "the family's shell runs on another platform than this host, where its probe could never fire",
  'qualify-recorder-required':
    'this family needs --recorder: an executable of yours that implements the recorder protocol',
  'qualify-in-progress':
    'a qualification is already in progress in the state directory: finish or cancel it first',
  'qualify-not-started': 'no qualification is in progress in the state directory',
  'qualify-cancel-interrupted':
    'the qualification is being cancelled: run qualify cancel again to complete it',
  'qualify-start-interrupted':
    'the qualification start was interrupted before its probe was ready: run qualify cancel, then start again',
  'qualify-state-malformed':
    'the qualification state file is not one this kit wrote: cancel cannot trust it, so check the hook file and delete the state directory',
  'state-dir-unsafe':
    'the qualification state directory is not yours alone: it must be a directory you own with mode 0700 (chmod 700 it, or choose another)',
  'state-entry-unsafe':
    'the qualification state directory holds a link or other file the kit did not make at one of its names; it is not followed: remove that name, then run the command again',
  'qualify-out-exists':
    'the record path already holds another file: choose a new path or move that file away',
  'qualify-version-unreported':
    'no recorded stop reported a Cursor version on stdin or in CURSOR_VERSION, so no record can name its build: fire one from a build that reports it, or run qualify cancel',
  'qualify-version-conflict':
    'the recorded stops report different Cursor versions: cancel, then qualify each build on its own',
  'probe-not-fired':
    'nothing was recorded yet: finish one agent turn in Cursor so it fires stop, then run finish again',
  'probe-argv-mismatch':
    'Cursor ran the probe with other arguments than it was given: this family does not hold for this build, so no record was written',
  'probe-recording-malformed': 'a recording in the probe directory is not one the recorder writes',

  // Requests, receipts and ownership (ConflictError).
  'request-malformed': 'the request is not a well-formed plan request',
  'document-malformed':
    'the document field is not a plain Uint8Array (or null or undefined for an absent file)',
  'operation-unknown': 'the operation is not install, update, remove or repair',
  'executable-unverified': 'the host has not attested its executable and selector checks',
  'spec-count': 'the operation needs exactly one hook spec',
  'spec-malformed': 'a hook spec is not an object of executable and selector strings',
  'receipt-required': 'the operation needs the previous receipt',
  // The user's "off" (disable / enable).
  'disabled-by-user':
    'the user turned this hook off with disable: nothing installs, updates or repairs it until enable',
  'not-disabled': 'the hook is not turned off: there is nothing for enable to turn back on',
  'receipt-malformed': 'the receipt does not have exactly the receipt fields with valid values',
  'receipt-entry-mismatch': "the receipt's spec and shell do not render its entry digest",
  'spec-mismatch':
    'the requested entry differs from the receipted one: use update to change the owned entry to it',
  'shell-mismatch':
    'the requested shell differs from the receipted one: use update to render the owned entry with it',
  'command-exists': 'the desired command already occurs in the hooks',
  'command-collision': 'the new command already occurs outside the owned entry',
  'owner-duplicated': 'the owned command occurs more than once in the hooks',
  'owner-outside-stop': 'the owned command occurs outside the stop event',
  'owner-modified': 'the owned entry was changed since the receipt was issued',
  'shell-contract-duplicate': 'two registered shell contracts share one id',
  'shell-contract-invalid': 'a registered shell contract does not have the required shape',
  'unexpected-failure': 'an unexpected failure stopped the plan; nothing was changed',
  'advice-options-invalid':
    'the advice options are not valid: a known source, a string command, a known grammar family, a string shell id and an array of contracts',

  // Container misuse found when adopting the package (issue 8; ConflictError).
  'shell-contract-unqualified':
    'the unqualified Windows contract id names a refusal and can never be registered',
  'shell-contract-late':
    'a shell contract was bound after the planner was built; bind it before the first get(HookPlanner)',

  // Unproven absence (AbsenceUnprovenError).
  'owner-absent': 'the owned entry is absent, so its removal cannot be told from a foreign edit',
  'remainder-drift': 'the document outside the owned entry changed since the receipt was issued',

  // The stop observer (cursorhooks/observer). Reported on stderr: the stop is answered {} anyway.
  'observer-option-invalid':
    'an observer option is not of its documented type: onStop a function, deadlineMs and maxBytes positive numbers in range, heartbeat an absolute path, contract one naming a version',
  'observer-handler-failed':
    'the stop handler threw or rejected; the stop was answered with {} all the same',
  'heartbeat-write-failed':
    'the heartbeat file could not be written; the stop was answered with {} all the same',

  // The Node host kit (cursorhooks/node): files, locks and the receipt ledger. These are host
  // failures, not plan refusals; an errno code may travel as a property, never a path.
  'file-changed': 'the file changed since it was read; nothing was written, plan again',
  'file-not-regular': 'the path is not a regular file (a directory, FIFO, device or socket)',
  'file-too-large': 'the file is larger than any file of this kind the kit writes; it was not read',
  'file-is-link':
    'the path is a symbolic link where the kit only uses its own files, so it is not followed: remove the link',
  'file-read-only':
    'the file is read-only (its owner may not write it): the kit replaces files by renaming, which would ignore that, so it refuses; make it writable (chmod u+w) to let it be changed',
  'file-hard-linked': 'the file has other hard links, which replacing it would silently split off',
  'lock-timeout': 'another process held the lock beside the file for too long',
  'lock-held-by-this-process':
    'this process already holds the lock beside the file; waiting for it would wait forever',
  'lock-foreign':
    'the lock name beside the file holds something cursorhooks did not write (a link, a directory, an empty or foreign file): remove it if no cursorhooks process is running',
  'lock-lost':
    'another process took the lock beside the file during this write, which was cut short or may have replaced theirs: run status',
  'lock-no-hard-links':
    "the directory's file system has no hard links (FAT, exFAT, some network mounts), which the lock beside the file needs: keep the file on another file system",
  'permission-denied': 'the file system refused access',
  'directory-not-writable':
    'the directory that holds the file does not let this user create files in it: make the directory writable (chmod u+w), then run the command again',
  'disk-full': 'the disk or quota is full',
  'io-failure': 'a file system operation failed',
  'readback-mismatch': 'the file read back after the write does not hold the written bytes',
  'metadata-not-preserved':
    "the replacement could not carry over the file's ACLs or extended attributes, or could not see them (the optional @napi-rs/xattr module does not load); nothing was written",
  'ledger-malformed': 'the receipt ledger is not a well-formed cursorhooks ledger',
  'ledger-version-unsupported': 'the receipt ledger has a version this kit does not know',
  'pending-unresolved':
    'an interrupted ledger transaction matches neither its old nor new state: run release to end ownership',
  'ledger-is-hook-file': 'the ledger path names the hook file itself: give the ledger its own file',
  'contract-file-record-invalid':
    'the contract file to record is not an absolute path, a non-empty contract id and a SHA-256 of 64 lowercase hex digits',

  // The hook at run time: the heartbeat file and simulate-stop.
  'heartbeat-malformed':
    'the heartbeat file is not a version 1 cursorhooks heartbeat (strict UTF-8 JSON, exact keys)',
  'heartbeat-too-large': 'the heartbeat file exceeds 64 KiB',
  'heartbeat-directory-missing':
    "the heartbeat file's directory does not exist or is not a directory, so the stop observer can never record a stop there: create the directory, or give --heartbeat a file in an existing one",
  'heartbeat-is-directory':
    'the heartbeat path names a directory, where the stop observer writes a file: give --heartbeat the path of a file',
  'heartbeat-directory-not-writable':
    "the heartbeat file's directory does not let this user create files in it, so the stop observer could never record a stop there: make the directory writable (chmod u+w), or give --heartbeat a file in a directory this user can write",
  'simulate-not-owned':
    'no intact owned stop entry is installed in the hook file: simulate-stop runs only the entry the ledger receipts',
  'simulate-disabled':
    'the user turned this hook off with disable: there is no entry to fire until enable turns it back on',
  'simulate-contract-unregistered':
    "the receipt's shell contract is not registered: give its qualification record with --contract-file",
  'simulate-payload-too-large': 'the payload file exceeds the 4 MiB size limit',
  'simulate-reply-not-neutral':
    'the entry did not answer the simulated stop neutrally: exit 0 in time with a JSON object and no followup_message',
  'conformance-failed':
    'the entry failed at least one case of the stop conformance matrix (the result names each)',
  'simulate-shell-missing':
    'the shell this Cursor runs hooks with on this platform is not installed here (pwsh for the Windows family)',
} as const;

export type ErrorReason = keyof typeof REASON_MESSAGES;

const UNCLASSIFIED = 'refused for an unclassified reason';

export function isKnownReason(reason: unknown): reason is ErrorReason {
  return typeof reason === 'string' && Object.hasOwn(REASON_MESSAGES, reason);
}

export function messageFor(reason: string): string {
  return isKnownReason(reason) ? REASON_MESSAGES[reason] : UNCLASSIFIED;
}
