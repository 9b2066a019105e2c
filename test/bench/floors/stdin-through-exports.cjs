// The floor under any CommonJS observer that takes a package by a subpath: stdin.cjs itself,
// required by name through this folder's exports map (nested conditions, as cursorhooks/observer
// is taken in observer-stop.cjs). Node loads its ES resolver for any exports map, even under
// `require`; what the observer costs beyond this row is the kit's own code.
require('floors/stdin');
