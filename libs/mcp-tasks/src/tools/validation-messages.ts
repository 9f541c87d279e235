import type { ValidationError } from 'class-validator';

/** class-validator's errors as readable lines, nested properties prefixed with their path (`address.city …`). */
export function validationMessages(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => [
    ...Object.values(e.constraints ?? {}).map((m) => (prefix ? `${prefix}.${m}` : m)),
    ...validationMessages(e.children ?? [], prefix ? `${prefix}.${e.property}` : e.property),
  ]);
}
