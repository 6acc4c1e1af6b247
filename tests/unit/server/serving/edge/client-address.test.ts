import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readConfig } from '@/server/config';
import { clientAddressOf, compileTrust, dropUntrustedForwarding, schemeOf } from '@/server/serving/edge/client-address';

const request = (headers: Record<string, string>, remoteAddress = '10.0.0.9') =>
  ({ headers: { ...headers }, socket: { remoteAddress }, connection: { remoteAddress } }) as unknown as IncomingMessage;

/** TRUST_PROXY as an operator writes it, through the config module. */
const trust = (value: string) => compileTrust(readConfig({ TRUST_PROXY: value }).trustProxy);

describe('clientAddressOf', () => {
  // The socket peer is 10.0.0.9 unless the row says otherwise; X-Forwarded-For as a visitor
  // would forge it (left) and proxies append to it (right).
  it.each([
    ['false', '203.0.113.7, 10.0.0.1', '10.0.0.9', '10.0.0.9'],
    ['0', '203.0.113.7, 10.0.0.1', '10.0.0.9', '10.0.0.9'],
    // One trusted hop (haproxy appends the address it was reached from): the right-most entry, never the forged left one.
    ['1', '198.51.100.66, 203.0.113.7', '10.0.0.9', '203.0.113.7'],
    ['1', '203.0.113.7', '10.0.0.9', '203.0.113.7'],
    ['2', '198.51.100.66, 203.0.113.7, 10.0.0.1', '10.0.0.9', '203.0.113.7'],
    // More hops trusted than there are entries: the left-most address there is.
    ['3', '203.0.113.7', '10.0.0.9', '203.0.113.7'],
    ['1', '', '10.0.0.9', '10.0.0.9'],
    // Addresses and names: trusted peers are skipped from the right, the first stranger is the client.
    ['10.0.0.0/8', '198.51.100.66, 203.0.113.7, 10.0.0.1', '10.0.0.9', '203.0.113.7'],
    ['uniquelocal', '198.51.100.66, 203.0.113.7, 192.168.1.1', '10.0.0.9', '203.0.113.7'],
    ['loopback', '198.51.100.66, 203.0.113.7', '127.0.0.1', '203.0.113.7'],
    ['loopback, 10.0.0.0/8', '203.0.113.7, 10.1.2.3', '::1', '203.0.113.7'],
    ['linklocal', '203.0.113.7', '169.254.1.1', '203.0.113.7'],
    // A peer outside the list: its X-Forwarded-For is not read at all.
    ['10.0.0.0/8', '198.51.100.66', '203.0.113.50', '203.0.113.50'],
    ['loopback', '198.51.100.66', '10.0.0.9', '10.0.0.9'],
    ['2001:db8::/32', '203.0.113.7', '2001:db8::1', '203.0.113.7'],
  ])('TRUST_PROXY=%s, X-Forwarded-For "%s" from %s: %s', (setting, forwarded, peer, expected) => {
    const headers: Record<string, string> = forwarded ? { 'x-forwarded-for': forwarded } : {};
    expect(clientAddressOf(request(headers, peer), trust(setting))).toBe(expected);
  });

  it('keeps the socket address when a trusted hop wrote no address', () => {
    expect(clientAddressOf(request({ 'x-forwarded-for': 'x'.repeat(500) }), trust('1'))).toBe('10.0.0.9');
    expect(clientAddressOf(request({ 'x-forwarded-for': 'unknown' }), trust('1'))).toBe('10.0.0.9');
  });
});

describe('schemeOf', () => {
  it.each([
    ['false', '10.0.0.9', 'http'],
    ['1', '10.0.0.9', 'https'],
    ['loopback', '127.0.0.1', 'https'],
    ['loopback', '10.0.0.9', 'http'],
  ])('believes X-Forwarded-Proto with TRUST_PROXY=%s from %s: %s', (setting, peer, expected) => {
    expect(schemeOf(request({ 'x-forwarded-proto': 'https, http' }, peer), trust(setting))).toBe(expected);
  });
});

describe('dropUntrustedForwarding', () => {
  const forwarding = {
    'x-forwarded-for': '198.51.100.66',
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
    'x-forwarded-port': '443',
    forwarded: 'for=198.51.100.66;host=evil.example',
  };

  it('removes every forwarding header sent by a peer we do not trust', () => {
    const req = request({ ...forwarding, host: 'site.example' }, '203.0.113.50');
    dropUntrustedForwarding(req, trust('10.0.0.0/8'));
    expect(req.headers).toEqual({ host: 'site.example' });
  });

  it('keeps them from a trusted peer', () => {
    const req = request({ ...forwarding }, '10.0.0.9');
    dropUntrustedForwarding(req, trust('10.0.0.0/8'));
    expect(req.headers).toEqual(forwarding);
  });
});
