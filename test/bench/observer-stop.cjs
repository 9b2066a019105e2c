// The benchmark's CommonJS observer: the same smallest stop hook as observer-stop.mjs, required by
// name, so Node resolves the package's exports to the CommonJS bundle.
const { runStopObserver } = require('cursorhooks/observer');

runStopObserver({ onStop: () => undefined });
