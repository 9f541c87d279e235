import type { SdkRequestOptions, UpstreamClient } from './upstream-client.api.js';

type Params = Record<string, unknown>;
type SdkRequest = (sdk: UpstreamClient['sdk'], params: Params, o: SdkRequestOptions) => Promise<Params>;

/** `value` under `key`, or nothing: the SDK checks what it sends, and an absent field must stay absent. */
const optional = (key: string, value: unknown): Params => (value === undefined ? {} : { [key]: value });

/**
 * The requests the gateway forwards to a 2025-era upstream, as SDK calls on its session (the SDK frames them for
 * the revision it negotiated): only what that era has of each — no MRTR fields, no task.
 */
const LEGACY_REQUESTS: Record<string, SdkRequest> = {
  'tools/call': (sdk, p, o) => sdk.callTool({ name: p.name as string, arguments: p.arguments as Params }, o),
  'resources/read': (sdk, p, o) => sdk.readResource({ uri: p.uri }, o),
  'prompts/get': (sdk, p, o) => sdk.getPrompt({ name: p.name, ...optional('arguments', p.arguments) }, o),
  'completion/complete': (sdk, p, o) =>
    sdk.complete({ ref: p.ref, argument: p.argument, ...optional('context', p.context) }, o),
};

/** Whether `method` can be forwarded to a 2025-era upstream. */
export const forwardsToLegacy = (method: string): boolean => Object.hasOwn(LEGACY_REQUESTS, method);

/** `method` sent on the 2025-era session of `client`. */
export function legacyRequest(client: UpstreamClient, method: string, params: Params, o: SdkRequestOptions) {
  return LEGACY_REQUESTS[method]!(client.sdk, params, o);
}
