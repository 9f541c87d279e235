import { JSONSchema } from 'class-validator-jsonschema';
import { createRequire } from 'node:module';

/** The schema key SEP-2243 reads (2026-07-28 Streamable HTTP, "Custom Headers from Tool Parameters"). */
export const X_MCP_HEADER = 'x-mcp-header';

type SchemaMeta = Record<string, unknown> | ((...args: any[]) => Record<string, unknown>);

/**
 * Property decorator for a tool's input DTO: the argument is mirrored into an HTTP header, `Mcp-Param-<name>`, so a
 * load balancer or gateway can route on it (a tenant id, a region) without reading the body. `tools/list` marks the
 * property `x-mcp-header: <name>`; clients on 2026-07-28 send the header with every call that has a value there, and
 * the server refuses a call whose header is missing or differs from the body (400, -32020).
 *
 * The rules are the spec's, checked when the app starts (it fails naming the tool and the property): `name` is an
 * HTTP token (letters, digits, ``!#$%&'*+-.^_`|~``), unique within the tool regardless of case; the property is a
 * top-level one of the tool's DTO (a nested DTO is a `$ref`, which the spec forbids) and is a string, an integer or
 * a boolean by its class-validator decorators (`@IsString`, `@IsInt`, `@IsBoolean`; `@IsNumber` is refused).
 * An `@JSONSchema()` on the same property goes below this decorator (one written above it replaces this one).
 * @publicApi
 */
export function McpHeader(name: string): PropertyDecorator {
  return (target, key) => {
    const prior = priorSchema(target, key as string);
    const mark = { [X_MCP_HEADER]: name };
    const merged =
      typeof prior === 'function' ? (...args: any[]) => ({ ...prior(...args), ...mark }) : { ...prior, ...mark };
    JSONSchema(merged)(target, key as string);
    const marked = { ...mcpHeadersOf(target.constructor), [key]: name };
    Reflect.defineMetadata(MCP_HEADERS, marked, target.constructor);
  };
}

const MCP_HEADERS = Symbol('mcp-tasks:mcp-headers');

/** The `@McpHeader` properties of a DTO (its own and inherited), by property: what its schema must show. */
export const mcpHeadersOf = (dto: Function): Record<string | symbol, string> =>
  (Reflect.getMetadata(MCP_HEADERS, dto) as Record<string | symbol, string> | undefined) ?? {};

/** An `@JSONSchema()` already on the property (applied below this one): kept, with the mark added. */
function priorSchema(target: object, key: string): SchemaMeta | undefined {
  try {
    const loaded = createRequire(import.meta.url)('class-validator-jsonschema/build/decorators') as {
      getMetadataSchema?: (target: object, key: string) => SchemaMeta;
    };
    return loaded.getMetadataSchema?.(target, key);
  } catch {
    return undefined;
  }
}
