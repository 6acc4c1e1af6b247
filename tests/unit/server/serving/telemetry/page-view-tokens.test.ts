import { describe, expect, it } from 'vitest';
import { createPageViewTokens } from '@/server/serving/telemetry/page-view-tokens';

const OLD_KEY = 'o'.repeat(32);
const NEW_KEY = 'n'.repeat(32);
const TTL = 1_800_000;

/** A clock at a whole second (tokens state times in seconds), moved by hand. */
function clock() {
  let time = 1_800_000_000_000;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe('createPageViewTokens', () => {
  it('issues tokens any pod with the key verifies, stating the page view', () => {
    const time = clock();
    const issuer = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, owner: '198.18.0.7', now: time.now });
    const otherPod = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, now: time.now });
    const token = issuer.issue('build-a', 'zh-CN');
    expect(token.length).toBeLessThanOrEqual(400);
    expect(otherPod.verify(token)).toEqual({
      ok: true,
      view: {
        id: expect.stringMatching(/^[\w-]{16}$/),
        build: 'build-a',
        locale: 'zh-CN',
        issuedAt: time.now(),
        expiresAt: time.now() + TTL,
        owner: '198.18.0.7',
      },
    });
    // An IPv6 owner fits, and one beyond an address's characters is no token of ours.
    expect(createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, owner: 'fd00::1:2' }).issue('b', 'en').length).toBeLessThanOrEqual(400);
  });

  it('gives every page view its own id', () => {
    const tokens = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL });
    const ids = new Set(
      Array.from({ length: 1000 }, () => tokens.verify(tokens.issue('b', 'en'))).map((check) => check.ok && check.view.id),
    );
    expect(ids.size).toBe(1000);
  });

  it('refuses tokens of another key, edited tokens and garbage', () => {
    const tokens = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL });
    const stranger = createPageViewTokens({ keys: [NEW_KEY], ttlMs: TTL });
    const token = tokens.issue('b', 'ja');
    const [keyId, payload, mac] = token.split('.') as [string, string, string];
    const edit = (from: string, to: string) =>
      `${keyId}.${Buffer.from(Buffer.from(payload, 'base64url').toString().replace(from, to)).toString('base64url')}.${mac}`;
    for (const forged of [
      stranger.issue('b', 'ja'),
      edit('~b~', '~c~'),
      edit('~ja~', '~en~'),
      `${keyId}.${payload}.${Buffer.alloc(16).toString('base64url')}`,
      `${keyId}.${payload}.${mac.slice(0, -2)}`,
      `${keyId}.${payload}`,
      `${token}.x`,
      '',
      '..',
      'x'.repeat(1000),
    ]) {
      expect(tokens.verify(forged), forged).toEqual({ ok: false, reason: 'bad_token' });
      expect(tokens.renew(forged), forged).toBeNull();
    }
  });

  it('expires a token after its lifetime', () => {
    const time = clock();
    const tokens = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, now: time.now });
    const token = tokens.issue('b', 'en');
    time.advance(TTL);
    expect(tokens.verify(token).ok).toBe(true);
    time.advance(1000);
    expect(tokens.verify(token)).toEqual({ ok: false, reason: 'expired_token' });
  });

  it('renews a token as the same page view with a new lifetime, up to a lifetime after it expired', () => {
    const time = clock();
    const tokens = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, now: time.now });
    const first = tokens.issue('b', 'ja');
    time.advance(TTL + 60_000);
    const renewed = tokens.renew(first);
    expect(renewed).not.toBeNull();
    const [before, after] = [tokens.verify(first), tokens.verify(renewed ?? '')];
    expect(before.ok).toBe(false);
    expect(after.ok && after.view).toMatchObject({ build: 'b', locale: 'ja', issuedAt: time.now(), expiresAt: time.now() + TTL });
    const original = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL, now: () => 1_800_000_000_000 }).verify(first);
    expect(after.ok && original.ok && after.view.id === original.view.id).toBe(true);
    time.advance(2 * TTL + 1000);
    expect(tokens.renew(renewed ?? '')).toBeNull();
  });

  it('rotates keys: tokens of the old key verify while it is listed after the new one, which signs', () => {
    const before = createPageViewTokens({ keys: [OLD_KEY], ttlMs: TTL });
    const during = createPageViewTokens({ keys: [NEW_KEY, OLD_KEY], ttlMs: TTL });
    const after = createPageViewTokens({ keys: [NEW_KEY], ttlMs: TTL });
    const oldToken = before.issue('b', 'en');
    const newToken = during.issue('b', 'en');
    expect(during.verify(oldToken).ok).toBe(true);
    expect(before.verify(newToken).ok).toBe(false);
    expect(after.verify(newToken).ok).toBe(true);
    expect(after.verify(oldToken).ok).toBe(false);
    // A renewal is signed with the new key.
    expect(after.verify(during.renew(oldToken) ?? '').ok).toBe(true);
  });
});
