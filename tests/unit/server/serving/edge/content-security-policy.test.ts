import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  inlineScriptHashes,
  nonceSource,
  STRICT_CONTENT_SECURITY_POLICY,
} from '@/server/serving/edge/content-security-policy';

describe('the Content-Security-Policy', () => {
  it('allows no inline script and no eval unless told which', () => {
    const scripts = /script-src ([^;]*)/.exec(STRICT_CONTENT_SECURITY_POLICY)?.[1];
    expect(scripts).toBe("'self'");
    expect(STRICT_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(STRICT_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('names the scripts a page may run', () => {
    expect(contentSecurityPolicy(["'sha256-a'", "'nonce-b'"])).toContain("script-src 'self' 'sha256-a' 'nonce-b';");
  });

  it('hashes inline scripts as CSP 3 does (its example), and only inline ones', () => {
    const html = `<script src="/a.js"></script><script>alert('Hello, world.');</script><script id="x">é</script><script async="" src="/b.js"></script>`;
    expect(inlineScriptHashes(html)).toEqual([
      "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='",
      "'sha256-SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw/biumnEw='",
    ]);
  });

  it('makes a new nonce each time, in the form Next reads', () => {
    const nonces = new Set(Array.from({ length: 100 }, nonceSource));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(nonce).toMatch(/^'nonce-[A-Za-z0-9+/_-]+={0,2}'$/);
  });
});
