/** One property of an elicitation form's `requestedSchema`, as the 2025-11-25 and 2026-07-28 revisions allow it. */
interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  enumNames?: unknown[];
  oneOf?: Array<{ const?: unknown; title?: unknown }>;
  items?: { enum?: unknown[]; anyOf?: Array<{ const?: unknown; title?: unknown }> };
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
}

export interface Choice {
  value: string;
  name: string;
}

/** What to ask for one form field, and how; the prompter renders it. */
export type FormQuestion = { key: string; message: string; required: boolean } & (
  | { kind: 'confirm'; default?: boolean }
  | { kind: 'select'; choices: Choice[]; default?: string }
  | { kind: 'checkbox'; choices: Choice[]; default: string[]; minItems?: number; maxItems?: number }
  | { kind: 'number'; integer: boolean; min?: number; max?: number; default?: number }
  | { kind: 'input'; default?: string; minLength?: number; maxLength?: number; format?: string }
);

/**
 * The questions of a form (`requestedSchema`), one per property in schema order, each asked by its `title`,
 * else its `description`, else its key: booleans as yes/no, enums (`enum`, titled `oneOf`, legacy
 * `enumNames`) as a choice, multi-select arrays as checkboxes, numbers with their bounds, anything else as text.
 */
export function formQuestions(requestedSchema: unknown): FormQuestion[] {
  const schema = (requestedSchema ?? {}) as { properties?: Record<string, FieldSchema>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties ?? {}).map(([key, field]) => question(key, field, required.has(key)));
}

function question(key: string, field: FieldSchema, required: boolean): FormQuestion {
  const base = { key, required, message: field.title ?? field.description ?? key };
  const single = choices(field.enum, field.enumNames) ?? titled(field.oneOf);
  if (single) return { ...base, kind: 'select', choices: single, default: optional(field.default, 'string') };
  if (field.type === 'boolean') return { ...base, kind: 'confirm', default: optional(field.default, 'boolean') };
  if (field.type === 'array') {
    const multi = choices(field.items?.enum) ?? titled(field.items?.anyOf) ?? [];
    const preset = Array.isArray(field.default) ? field.default.map(String) : [];
    return {
      ...base,
      kind: 'checkbox',
      choices: multi,
      default: preset,
      minItems: field.minItems,
      maxItems: field.maxItems,
    };
  }
  if (field.type === 'number' || field.type === 'integer')
    return {
      ...base,
      kind: 'number',
      integer: field.type === 'integer',
      min: field.minimum,
      max: field.maximum,
      default: optional(field.default, 'number'),
    };
  return {
    ...base,
    kind: 'input',
    default: optional(field.default, 'string'),
    minLength: field.minLength,
    maxLength: field.maxLength,
    format: field.format,
  };
}

function choices(values: unknown[] | undefined, names?: unknown[]): Choice[] | undefined {
  if (!Array.isArray(values) || !values.length) return undefined;
  return values.map((v, i) => ({ value: String(v), name: String(names?.[i] ?? v) }));
}

function titled(options: Array<{ const?: unknown; title?: unknown }> | undefined): Choice[] | undefined {
  if (!Array.isArray(options) || !options.length) return undefined;
  return options.map((o) => ({ value: String(o.const), name: String(o.title ?? o.const) }));
}

function optional<T extends 'string' | 'number' | 'boolean'>(
  value: unknown,
  type: T,
): (T extends 'string' ? string : T extends 'number' ? number : boolean) | undefined {
  return typeof value === type ? (value as never) : undefined;
}
