// Hook files as real users' editors leave them (issue 10), shared by the refusal test and the
// doctor corpus: no `version`, a line comment, a trailing comma. MARKER stands for their values.
export const REAL_WORLD_FILES: readonly (readonly [string, string, string, RegExp])[] = [
  [
    'a file without version',
    '{\n  "hooks": {\n    "stop": [{ "command": "./MARKER-stop.sh" }]\n  }\n}\n',
    'version-missing',
    /add "version": 1 as a top-level member/,
  ],
  [
    'a file with a line comment',
    '{\n  // MARKER note\n  "version": 1,\n  "hooks": {}\n}\n',
    'json-syntax',
    /remove comments and trailing commas/,
  ],
  [
    'a file with a trailing comma',
    '{\n  "version": 1,\n  "hooks": { "stop": [{ "command": "MARKER" },] }\n}\n',
    'json-syntax',
    /remove comments and trailing commas/,
  ],
];
