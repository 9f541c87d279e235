import type { HandlerTarget } from '../pipeline/handler.invoker.js';
import type { McpResourceTemplateOptions } from './mcp-resource-template.decorator.js';
import type { McpResourceOptions } from './mcp-resource.decorator.js';
import type { UriTemplateMatcher } from './uri-template.matcher.js';

/** What both kinds share: where the method lives, its scopes, how it is listed. */
interface Served {
  name: string;
  /** `@RequiredScopes` of the method and its class: checked before anything is read, and for the lists. */
  requiredScopes: string[];
  /** The method, for `HandlerInvoker`. */
  target: HandlerTarget;
  /** Its entry in its list (`resources/list` or `resources/templates/list`). */
  listed: Record<string, unknown>;
}

/** An `@McpResource` method. */
export interface StaticResource extends Served {
  kind: 'static';
  options: McpResourceOptions;
}

/** An `@McpResourceTemplate` method. */
export interface TemplateResource extends Served {
  kind: 'template';
  options: McpResourceTemplateOptions;
  matcher: UriTemplateMatcher;
}

export type ResourceDefinition = StaticResource | TemplateResource;
