// The official v1 TypeScript SDK client (@modelcontextprotocol/sdk) over Streamable HTTP, at each revision it speaks.
// Each revision older than its default is offered as an older client built on it would (support/offering.mjs).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { VERSIONS_2025 } from '../support/cases.mjs';
import { offering } from '../support/offering.mjs';
import { answering, asks, v1Cases } from '../support/v1-cases.mjs';

const url = process.argv[2];

for (const version of VERSIONS_2025) {
  await v1Cases('sdk-v1', version, url, {
    tasks: version === '2025-11-25',
    async connect() {
      const capabilities = asks(version) ? { elicitation: { form: {} } } : {};
      const client = new Client({ name: 'clients-suite', version: '1.0.0' }, { capabilities });
      if (asks(version)) answering(client);
      await client.connect(offering(new StreamableHTTPClientTransport(new URL(url)), version));
      return client;
    },
  });
}
