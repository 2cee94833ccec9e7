// Check ids are typed references: a step can name only its scenario's checks, and a wrong id fails the typecheck (this file is type-checked with the rest).
import { describe, expect, it } from 'vitest';
import { defineScenario } from '../runner/scenario.js';
import type { CheckId } from './index.js';
import { scenarios } from './index.js';

describe('check ids', () => {
  it('are literal types: a typo is a compile error', () => {
    const known: CheckId = 'createPayment.captured-is-succeeded';
    // @ts-expect-error a check id that does not exist
    const typo: CheckId = 'createPayment.captured-is-succeded';
    const scenario = defineScenario({
      id: 'typed',
      title: 'typed',
      checks: [
        {
          id: 'createPayment.only-this',
          operation: 'createPayment',
          title: 't',
          element: { pointer: '/components/schemas/Payment' },
        },
      ],
      async run(context) {
        context.check('createPayment.only-this', true, '', '');
        // @ts-expect-error a check of another scenario
        context.check('createPayment.captured-is-succeeded', true, '', '');
      },
    });
    expect([known, typo, scenario.id]).toHaveLength(3);
  });

  it('every id a scenario declares is unique within it', () => {
    for (const scenario of scenarios) {
      const ids = scenario.checks.map((check) => `${check.operation}/${check.id}`);
      expect(new Set(ids).size, scenario.id).toBe(ids.length);
    }
  });
});
