/**
 * The names of the strategies registered with a passport instance, or `undefined` if that cannot be read.
 *
 * A private reach, kept to this file: passport has no public way to list (or even look up) its strategies;
 * `_strategies` (what `use()` fills and `unuse()` empties) is internal. It is read here only, at startup, to refuse
 * a misspelt `auth.strategy` naming the ones there are. `passport-strategies.adapter.spec.ts` fails if passport
 * changes that shape; at run time a changed shape only skips the startup check (requests then fail as before).
 */
export function registeredStrategies(passport: object): string[] | undefined {
  const strategies = (passport as { _strategies?: unknown })._strategies;
  return strategies && typeof strategies === 'object' ? Object.keys(strategies) : undefined;
}
