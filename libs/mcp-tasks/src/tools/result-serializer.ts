import type { Type } from '@nestjs/common';
import { instanceToPlain, plainToInstance, type ClassTransformOptions } from 'class-transformer';
import { depthExceeds, MAX_DEPTH } from '../protocol/json-depth.js';
import { InvalidToolResult } from './invalid-tool-result.error.js';

/** How a tool's objects become plain values: class-transformer's options, and `@SerializeOptions()`'s `type`. */
export type ResultSerializerOptions = ClassTransformOptions & { type?: Type<unknown> };

/** A value as it goes on the wire: the JSON value, and its text. */
export interface JsonOf {
  value: unknown;
  text: string;
}

/**
 * What an object or array a tool returned is sent as, made as Nest's `ClassSerializerInterceptor` makes an HTTP
 * response (`instanceToPlain` on the value, or on each item of an array: `@Exclude()`, `@Expose()` and groups
 * apply, in nested objects too), then as `JSON.stringify` writes it (`toJSON`, so Dates become ISO strings;
 * `undefined` and function properties left out). A circular value, one nested deeper than 64 levels, or one
 * holding a BigInt cannot be sent.
 */
export function jsonOf(value: object, options: ResultSerializerOptions): JsonOf {
  // Checked first: instanceToPlain would recurse into a cycle until the stack overflows.
  if (depthExceeds(value, MAX_DEPTH))
    throw new InvalidToolResult(`it is circular or nested deeper than ${MAX_DEPTH} levels`);
  const plain = Array.isArray(value) ? value.map((item) => toPlain(item, options)) : toPlain(value, options);
  let text: string | undefined;
  try {
    text = JSON.stringify(plain);
  } catch (err) {
    throw new InvalidToolResult(`it cannot be written as JSON (${(err as Error).message})`);
  }
  if (text === undefined) throw new InvalidToolResult('it cannot be written as JSON');
  return { value: JSON.parse(text) as unknown, text };
}

/** One value as `ClassSerializerInterceptor` transforms it: with `type`, a plain object is read as that class first. */
function toPlain(value: unknown, options: ResultSerializerOptions): unknown {
  if (!value || typeof value !== 'object') return value;
  const { type } = options;
  const source = !type || value instanceof type ? value : plainToInstance(type, value, options);
  return instanceToPlain(source, options);
}
