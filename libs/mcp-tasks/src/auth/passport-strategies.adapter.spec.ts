import { describe, expect, it } from '@jest/globals';
import passport, { type Strategy } from 'passport';
import { registeredStrategies } from './passport-strategies.adapter.js';

const strategy = (name: string): Strategy => ({ name, authenticate: () => undefined });

// A private reach (see the adapter): this fails if passport changes where it keeps strategies.
describe('registeredStrategies (passport internals)', () => {
  it('lists what use() registered and unuse() removed, on the default instance and a new one', () => {
    for (const instance of [passport, new passport.Passport()]) {
      expect(registeredStrategies(instance)).toEqual(['session']);
      instance.use(strategy('jwt'));
      instance.use('my-jwt', strategy('jwt'));
      expect(registeredStrategies(instance)).toEqual(['session', 'jwt', 'my-jwt']);
      instance.unuse('jwt');
      instance.unuse('my-jwt');
      expect(registeredStrategies(instance)).toEqual(['session']);
    }
  });

  it('is undefined, not a guess, for an instance it cannot read', () => {
    expect(registeredStrategies({})).toBeUndefined();
  });
});
