// The official v1 TypeScript SDK client (@modelcontextprotocol/sdk) over Streamable HTTP, at each revision it speaks.
// Its Client always offers its latest revision (2025-11-25) in initialize; an older client built on it is the same
// Client offering an older one, so the initialize it sends is rewritten to offer `version`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { VERSIONS_2025 } from '../support/cases.mjs';
import { answering, asks, v1Cases } from '../support/v1-cases.mjs';

const url = process.argv[2];

/** Makes `transport` offer `version` in its initialize request. */
export function offering(transport, version) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(
      message.method === 'initialize'
        ? { ...message, params: { ...message.params, protocolVersion: version } }
        : message,
      options,
    );
  return transport;
}

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
