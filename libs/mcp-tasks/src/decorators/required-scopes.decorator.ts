import { SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { REQUIRED_SCOPES_METADATA } from './decorators.constants.js';

/**
 * OAuth scopes a tool needs, on a tool method or its class (both combine). A call without them is
 * refused with 403 `insufficient_scope` before anything runs; the task it starts needs them too.
 * @publicApi
 */
export const RequiredScopes = (...scopes: string[]): ClassDecorator & MethodDecorator =>
  SetMetadata(REQUIRED_SCOPES_METADATA, scopes);

/** The scopes `@RequiredScopes` gives a tool method: the class's and the method's, each once. */
export const requiredScopesOf = (reflector: Reflector, cls: Function, method: Function): string[] => [
  ...new Set(reflector.getAllAndMerge<string[]>(REQUIRED_SCOPES_METADATA, [cls, method])),
];
