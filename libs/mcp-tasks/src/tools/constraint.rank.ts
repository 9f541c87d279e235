/**
 * Which of a property's failed class-validator constraints names the problem best, lowest first: what is extra or
 * missing, then the type (a value of the wrong type fails its bounds too: "ten" for `@IsInt() @Min(1) @Max(3600)`
 * fails all three, and "must be an integer" is the one a model can act on), then any other rule (format, membership,
 * custom), then bounds (a value of the right type that is too small, too long, empty).
 */
const FIRST = [
  'whitelistValidation',
  'isDefined',
  'nestedValidation',
  'isInt',
  'isNumber',
  'isNumberString',
  'isString',
  'isBoolean',
  'isArray',
  'isObject',
  'isDate',
];
const LAST = [
  'isNotEmpty',
  'arrayNotEmpty',
  'isPositive',
  'isNegative',
  'min',
  'max',
  'minDate',
  'maxDate',
  'minLength',
  'maxLength',
  'isLength',
  'arrayMinSize',
  'arrayMaxSize',
  'arrayUnique',
];

/** A constraint's rank: `FIRST` in its order, then every other constraint, then `LAST` in its order. */
export function constraintRank(name: string): number {
  const first = FIRST.indexOf(name);
  if (first >= 0) return first;
  const last = LAST.indexOf(name);
  return last >= 0 ? FIRST.length + 1 + last : FIRST.length;
}
