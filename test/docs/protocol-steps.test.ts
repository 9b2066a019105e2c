// docs/protocol.md's tables of next steps are rendered from the code that picks them: every
// step with what it runs and the sentence status prints, and the refusals with a step of their own.
import { describe, it } from 'vitest';
import {
  NEXT_STEP_SENTENCES,
  type NextStep,
  REFUSAL_STEPS,
  STEP_COMMANDS,
} from '../../src/node/status/status.js';
import { expectGenerated, table } from './generated.js';

/** What a step runs, as the page says it: finish repeats whichever command was interrupted. */
function runs(code: NextStep): string {
  if (code === 'finish') return 'the interrupted command again';
  const command = STEP_COMMANDS[code];
  if (command !== null) return `\`${command}\``;
  return code === 'none' ? 'nothing' : 'a hand step';
}

describe('docs/protocol.md', () => {
  it('lists every next step with what it runs and the sentence status prints (red: a step, its command or its sentence differs from the code)', () => {
    const steps = Object.keys(NEXT_STEP_SENTENCES) as NextStep[];
    const rows = steps.map((code) => [`\`${code}\``, runs(code), NEXT_STEP_SENTENCES[code]]);
    expectGenerated(
      'docs/protocol.md',
      'next steps',
      table(['next step', 'runs', 'sentence'], rows),
    );
  });

  it('lists every refusal that names its own way out (red: a refusal is added to the code and not the page, or the other way round)', () => {
    const byStep = new Map<NextStep, string[]>();
    for (const [reason, step] of Object.entries(REFUSAL_STEPS) as [string, NextStep][]) {
      byStep.set(step, [...(byStep.get(step) ?? []), `\`${reason}\``]);
    }
    const rows = [...byStep].map(([step, reasons]) => [reasons.join(', '), `\`${step}\``]);
    expectGenerated(
      'docs/protocol.md',
      'refusal steps',
      table(['refused with', 'next step'], rows),
    );
  });
});
