import type { ValidationError } from 'class-validator';
import { constraintRank } from './constraint.rank.js';

/**
 * class-validator's errors as one line per failing property, `<path>: <rule>`: the path from the DTO's root
 * (`address.city`, `items[0].name`, after `at`), the rule its most telling failed constraint (`constraintRank`). A
 * default message repeats the property's name (`city must be a string`): the path says it already, so it goes.
 */
export function validationMessages(errors: ValidationError[], at = ''): string[] {
  return errors.flatMap((e) => {
    const path = /^\d+$/.test(e.property) ? `${at}[${e.property}]` : at ? `${at}.${e.property}` : e.property;
    const rule = mostTelling(e);
    const own = rule === undefined ? [] : [`${path}: ${withoutName(rule, e.property)}`];
    return [...own, ...validationMessages(e.children ?? [], path)];
  });
}

/** The message of the failed constraint that ranks first; ties keep class-validator's order. */
function mostTelling(e: ValidationError): string | undefined {
  const failed = Object.entries(e.constraints ?? {});
  if (failed.length === 0) return undefined;
  return failed.reduce((best, next) => (constraintRank(next[0]) < constraintRank(best[0]) ? next : best))[1];
}

const withoutName = (message: string, property: string): string =>
  message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
