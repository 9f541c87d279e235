import type { Provider } from '@nestjs/common';
import { BearerAuthenticator } from './bearer.authenticator.js';
import { PrincipalResolver } from './principal.resolver.js';
import { ResourceUrl } from './resource-url.js';

/** Who a request is: bearer tokens, the resource they must name, the principal and its owner key. */
export const authProviders: Provider[] = [PrincipalResolver, ResourceUrl, BearerAuthenticator];
