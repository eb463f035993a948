import { describe, expect, it } from 'vitest';
import { trustedProxies } from '../../src/server/platform/http/trusted-proxies.js';

describe('trusted proxies (TRUST_PROXY; docs/deployment.md, "TLS and the proxy")', () => {
  it('trust no peer when TRUST_PROXY is empty, so the socket address is the client', () => {
    expect(trustedProxies([])).toBe(false);
  });

  it('trust exactly the listed addresses and ranges, IPv4 peers seen through IPv6 included', () => {
    const trust = trustedProxies(['10.1.2.3', '192.168.0.0/16', '2001:db8::/32']);
    expect(trust).not.toBe(false);
    if (trust === false) return;
    expect(trust('10.1.2.3', 0)).toBe(true);
    expect(trust('::ffff:10.1.2.3', 0)).toBe(true);
    expect(trust('192.168.77.1', 0)).toBe(true);
    expect(trust('2001:db8::7', 0)).toBe(true);
    for (const stranger of ['10.1.2.4', '192.169.0.1', '2001:db9::1', '127.0.0.1', 'not-an-ip']) {
      expect(trust(stranger, 0)).toBe(false);
    }
  });

  it('give the same answers after remembering more peers than it keeps', () => {
    const trust = trustedProxies(['10.0.0.0/8']);
    if (trust === false) throw new Error('expected a trust function');
    for (let round = 0; round < 2; round += 1) {
      for (let peer = 0; peer < 3_000; peer += 1) {
        const inRange = `10.0.${peer >> 8}.${peer & 255}`;
        const outside = `11.0.${peer >> 8}.${peer & 255}`;
        expect(trust(inRange, 0)).toBe(true);
        expect(trust(outside, 0)).toBe(false);
      }
    }
  });
});
