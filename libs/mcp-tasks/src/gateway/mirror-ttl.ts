/**
 * The local ttl: ours, but never past the upstream task's expiry — counted from when the call was sent, which is
 * no later than the upstream created its task, whatever the two clocks say.
 */
export function localTtl(ours: number | null, theirs: unknown, sentAt: number): number | null {
  const upstream = typeof theirs === 'number' && theirs > 0 ? theirs - (Date.now() - sentAt) : Infinity;
  const ttl = Math.min(ours ?? Infinity, upstream);
  return ttl === Infinity ? null : Math.max(1, Math.floor(ttl));
}
