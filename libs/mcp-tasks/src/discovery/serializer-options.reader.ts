import { SerializeOptions } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { ClassTransformOptions } from 'class-transformer';
import type { ResultSerializerOptions } from '../tools/result-serializer.js';

/** Where `@SerializeOptions()` keeps its options (Nest exports the key only internally): read off a probe. */
const SERIALIZE_OPTIONS_KEY = ((): unknown => {
  class Probe {}
  SerializeOptions({})(Probe);
  return Reflect.getOwnMetadataKeys(Probe)[0];
})();

/**
 * A tool's serializer options, as `ClassSerializerInterceptor` would resolve them for a route: the module's
 * `serializer`, with the method's `@SerializeOptions()` (else its class's) over them.
 */
export function serializerOptionsOf(
  reflector: Reflector,
  defaults: ClassTransformOptions,
  cls: Function,
  method: Function,
): ResultSerializerOptions {
  const own = reflector.getAllAndOverride<ResultSerializerOptions | undefined>(SERIALIZE_OPTIONS_KEY as string, [
    method,
    cls,
  ]);
  return { ...defaults, ...own };
}
