// cursorhooks/observer: the stop hook's run time, light enough to load on every stop. It loads
// neither inversify nor reflect-metadata nor the planner: only these files, checkStopEvent's
// module and the error table.

export type { Heartbeat, LastStop, SimulationMark, StopStatus } from '../shell/heartbeat-record.js';
export {
  checkStopEvent,
  MAX_STOP_PAYLOAD_BYTES,
  type StopEventCheck,
  type StopEventVerdict,
  type StopPayloadProblem,
} from '../shell/stop-event.js';
export {
  type ReadStopEventOptions,
  readStopEvent,
  type StopEventRead,
  type StopReadProblem,
} from './read-stop-event.js';
export {
  runStopObserver,
  type StopEvent,
  type StopObserverOptions,
} from './run-stop-observer.js';
export type { ObserverContract } from './verdict.js';
