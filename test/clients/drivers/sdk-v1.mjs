// The official v1 TypeScript SDK client (@modelcontextprotocol/sdk) over Streamable HTTP, at each revision it speaks.
// Each revision older than its default is offered as an older client built on it would (support/offering.mjs).
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { VERSIONS_2025 } from '../support/cases.mjs';
import { v1Suite } from '../support/sdk-cases.mjs';

const url = process.argv[2];

await v1Suite('sdk-v1', url, VERSIONS_2025, () => new StreamableHTTPClientTransport(new URL(url)));
