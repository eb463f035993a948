import proxyAddr from '@fastify/proxy-addr';

/** How many peer addresses are remembered before the memory starts afresh. */
const REMEMBERED_PEERS = 1_024;

export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * Fastify's `trustProxy`: whether a peer is one of TRUST_PROXY's addresses or ranges, so that its
 * X-Forwarded-For is believed. proxy-addr parses the peer's address afresh on every call, which
 * costs every request behind a proxy several microseconds for an answer that never changes: the
 * answer for each address is remembered. The memory is bounded, so peers with ever new addresses
 * cost only the parse they always cost. No TRUST_PROXY: no peer is trusted, the socket address is
 * the client.
 */
export function trustedProxies(entries: readonly string[]): TrustProxy | false {
  if (entries.length === 0) return false;
  const isTrusted = proxyAddr.compile([...entries]);
  const answers = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = answers.get(address);
    if (trusted === undefined) {
      trusted = isTrusted(address, hop);
      if (answers.size >= REMEMBERED_PEERS) answers.clear();
      answers.set(address, trusted);
    }
    return trusted;
  };
}
