import { mcpHeadersOf, X_MCP_HEADER } from '../decorators/mcp-header.decorator.js';

/** An argument mirrored into an `Mcp-Param-<name>` header. */
export interface ParamHeader {
  /** As declared (`x-mcp-header`). */
  name: string;
  /** The header as Node presents it: `mcp-param-<name>`, lower case. */
  header: string;
  /** The chain of `properties` keys from the schema root to the argument. */
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);
const object = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The `x-mcp-header` arguments of a tool's `inputSchema`, checked against SEP-2243's rules (2026-07-28 Streamable
 * HTTP, "Schema Extension"): a break throws, naming the tool and the property, so the app does not start with a
 * tool every conforming client would drop from its list.
 */
export function paramHeadersOf(tool: string, inputSchema: Record<string, unknown>, dto?: Function): ParamHeader[] {
  const found: ParamHeader[] = [];
  const fail = (where: string, why: string): never => {
    throw new Error(`McpTasksModule: tool "${tool}", property ${where}: @McpHeader (x-mcp-header) ${why}`);
  };
  const visit = (node: unknown, path: string[], reachable: boolean, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, path, false, `${at}[${i}]`));
    if (!object(node)) return;
    if (X_MCP_HEADER in node) {
      if (!reachable || path.length === 0) fail(at, 'is only allowed on a top-level property of the DTO');
      found.push(declared(node, path, (why) => fail(`"${path.join('.')}"`, why)));
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && object(value)) {
        for (const [prop, sub] of Object.entries(value)) visit(sub, [...path, prop], reachable, `"${prop}"`);
      } else if (key !== X_MCP_HEADER) visit(value, path, false, key.startsWith('$') ? `in ${key}` : at);
    }
  };
  visit(inputSchema, [], true, 'root');
  // A property without class-validator decorators is not in the schema (nor is a mark a later @JSONSchema replaced).
  for (const [key, name] of Object.entries(dto ? mcpHeadersOf(dto) : {})) {
    if (!found.some((h) => h.path.length === 1 && h.path[0] === key && h.name === name)) {
      fail(`"${key}"`, 'is missing from the schema: give it @IsString, @IsInt or @IsBoolean (@JSONSchema goes below)');
    }
  }
  const seen = new Map<string, string>();
  for (const h of found) {
    const prior = seen.get(h.header);
    if (prior) fail(`"${h.path.join('.')}"`, `"${h.name}" repeats the header of "${prior}" (names ignore case)`);
    seen.set(h.header, h.path.join('.'));
  }
  return found;
}

function declared(node: Record<string, unknown>, path: string[], fail: (why: string) => never): ParamHeader {
  const name = node[X_MCP_HEADER];
  if (typeof name !== 'string' || !TOKEN.test(name)) {
    fail(`"${String(name)}" is not an HTTP token (letters, digits, !#$%&'*+-.^_\`|~; not empty)`);
  }
  const type = node.type;
  if (typeof type !== 'string' || !TYPES.has(type)) {
    const said = typeof type === 'string' ? `type ${type}` : 'no single type';
    fail(`needs a string, integer or boolean property (@IsString, @IsInt, @IsBoolean), not ${said}`);
  }
  return { name, header: `mcp-param-${name.toLowerCase()}`, path, type: type as ParamHeader['type'] };
}
