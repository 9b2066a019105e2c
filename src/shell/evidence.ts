import type { QualificationEvidence } from './contract.js';

/**
 * Freezes an evidence record and everything inside it. Contracts hand the same record to every
 * host, so one host editing what it displays must not change what another one sees.
 */
export function freezeEvidence(evidence: QualificationEvidence): QualificationEvidence {
  return Object.freeze({
    ...evidence,
    observed: Object.freeze([...evidence.observed]),
    notObserved: Object.freeze([...evidence.notObserved]),
    artifacts: Object.freeze(evidence.artifacts.map((artifact) => Object.freeze({ ...artifact }))),
  });
}
