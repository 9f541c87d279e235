/**
 * Makes a v1 SDK transport offer `version` in its initialize request. The v1 Client always offers its latest revision
 * (2025-11-25); an older client built on it is that Client offering an older one.
 */
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
