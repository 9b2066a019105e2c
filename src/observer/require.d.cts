// The types of cursorhooks/observer for CommonJS (`require('cursorhooks/observer')`): the same
// declarations as the ES entry's, taken from it type-only, so there is one source of them.
// npm run build:observer copies this file to dist/observer.d.cts, pointing it at the built types.
import type * as observer from './index.js' with { 'resolution-mode': 'import' };

export declare const checkStopEvent: typeof observer.checkStopEvent;
export declare const MAX_STOP_PAYLOAD_BYTES: typeof observer.MAX_STOP_PAYLOAD_BYTES;
export declare const readStopEvent: typeof observer.readStopEvent;
export declare const runStopObserver: typeof observer.runStopObserver;

export type Heartbeat = observer.Heartbeat;
export type LastStop = observer.LastStop;
export type ObserverContract = observer.ObserverContract;
export type ReadStopEventOptions = observer.ReadStopEventOptions;
export type SimulationMark = observer.SimulationMark;
export type StopEvent = observer.StopEvent;
export type StopEventCheck = observer.StopEventCheck;
export type StopEventRead = observer.StopEventRead;
export type StopEventVerdict = observer.StopEventVerdict;
export type StopObserverOptions = observer.StopObserverOptions;
export type StopPayloadProblem = observer.StopPayloadProblem;
export type StopReadProblem = observer.StopReadProblem;
export type StopStatus = observer.StopStatus;
