// The benchmark's observer: what a host's stop hook is at its smallest on the kit. It imports
// the package by name (Node resolves the package's own exports), so it loads the built entry.
import { runStopObserver } from 'cursorhooks/observer';

runStopObserver({ onStop: () => undefined });
