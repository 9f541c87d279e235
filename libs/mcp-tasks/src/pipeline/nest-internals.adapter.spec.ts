import { describe, expect, it } from '@jest/globals';
import { NEST_INTERNALS_CHECKS } from './nest-internals.probe.js';

// Fails when the Nest installed here stops having a shape `nest-internals.adapter` reads. The adoption test runs the
// same checks on a Nest 11 and a Nest 12 app (see docs/private-reaches.md).
describe('nest-internals.adapter: what it reads of Nest is still there', () => {
  it.each(NEST_INTERNALS_CHECKS.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    expect(await c.check()).toBeUndefined();
  });
});
