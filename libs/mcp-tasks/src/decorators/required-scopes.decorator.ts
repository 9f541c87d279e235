import { SetMetadata } from '@nestjs/common';
import { REQUIRED_SCOPES_METADATA } from '../mcp-tasks.constants.js';

/**
 * OAuth scopes a tool needs, on a tool method or its class (both combine). A call without them is
 * refused with 403 `insufficient_scope` before anything runs; the task it starts needs them too.
 */
export const RequiredScopes = (...scopes: string[]): ClassDecorator & MethodDecorator =>
  SetMetadata(REQUIRED_SCOPES_METADATA, scopes);
