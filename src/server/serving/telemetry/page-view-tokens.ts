import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isLocale, type Locale } from '@/shared/locales';
import { MAX_PAGE_VIEW_TOKEN } from '@/shared/page-view-token';

/** One page view the server counted, as its token states it. */
export interface PageView {
  /** Random, 96 bits: the same for every renewal of the page's token. */
  id: string;
  /** The build of the pod that answered the page: the build its reports count for. */
  build: string;
  locale: Locale;
  /** When this token (the first, or a renewal) was issued, in ms. */
  issuedAt: number;
  expiresAt: number;
  /** The address of the pod that issued it, which counts its reports; empty outside Kubernetes (POD_IP unset). */
  owner: string;
}

export type TokenCheck = { ok: true; view: PageView } | { ok: false; reason: 'bad_token' | 'expired_token' };

export interface PageViewTokens {
  /** A token for a page of `build` in `locale` this server is answering now. */
  issue(build: string, locale: Locale): string;
  verify(token: string): TokenCheck;
  /** The same page view with a new lifetime, or null when `token` is forged or expired for longer than a lifetime. */
  renew(token: string): string | null;
}

export interface PageViewTokenOptions {
  /** Secrets shared by every pod of the release: the first signs, all verify (rotation). */
  keys: readonly string[];
  ttlMs: number;
  /** This pod's address, named in its tokens as their owner; empty for none. */
  owner?: string;
  now?: () => number;
}

const ID_BYTES = 12;
const ID_PATTERN = /^[\w-]{16}$/;
/** An IPv4 or IPv6 address, as POD_IP gives it (config.ts checks it). */
const OWNER_PATTERN = /^[\da-fA-F.:]{0,45}$/;
const BUILD_PATTERN = /^[\w.-]{1,64}$/;
/** Bytes of the HMAC-SHA256 kept: 128 bits, as much as a forger must guess. */
const MAC_BYTES = 16;

/** A key's public name in its tokens, so a verifier picks the right key without trying each. */
const keyIdOf = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

/**
 * Page-view tokens: `<key id>.<payload>.<mac>`, where the payload (base64url) is the page
 * view's id, build, locale, issue and expiry times (seconds) and owner, and the mac an HMAC-SHA256 of
 * what precedes it under the release's key. Stateless: any pod holding the key verifies a
 * token another pod issued, and nobody without it can make one.
 */
export function createPageViewTokens({ keys, ttlMs, owner: self = '', now = Date.now }: PageViewTokenOptions): PageViewTokens {
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const signingId = keyIdOf(keys[0] ?? '');
  const mac = (key: string, signed: string) => createHmac('sha256', key).update(signed).digest().subarray(0, MAC_BYTES);

  function sign(id: string, build: string, locale: Locale, owner: string): string {
    const issued = Math.floor(now() / 1000);
    const expires = issued + Math.ceil(ttlMs / 1000);
    const signed = `${signingId}.${Buffer.from(`${id}~${build}~${locale}~${issued}~${expires}~${owner}`).toString('base64url')}`;
    return `${signed}.${mac(byId.get(signingId) ?? '', signed).toString('base64url')}`;
  }

  /** The page view a well-formed, authentic token states, expired or not; null otherwise. */
  function read(token: string): PageView | null {
    if (token.length > MAX_PAGE_VIEW_TOKEN) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [keyId = '', payload = '', sent = ''] = parts;
    const key = byId.get(keyId);
    if (key === undefined) return null;
    const expected = mac(key, `${keyId}.${payload}`);
    const given = Buffer.from(sent, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const fields = Buffer.from(payload, 'base64url').toString().split('~');
    const [id = '', build = '', locale = '', issued = '', expires = '', owner = ''] = fields;
    if (fields.length !== 6 || !ID_PATTERN.test(id) || !BUILD_PATTERN.test(build) || !isLocale(locale)) return null;
    if (!/^\d{1,12}$/.test(issued) || !/^\d{1,12}$/.test(expires) || !OWNER_PATTERN.test(owner)) return null;
    return { id, build, locale, issuedAt: Number(issued) * 1000, expiresAt: Number(expires) * 1000, owner };
  }

  return {
    issue: (build, locale) => sign(randomBytes(ID_BYTES).toString('base64url'), build, locale, self),
    verify(token) {
      const view = read(token);
      if (!view) return { ok: false, reason: 'bad_token' };
      return now() > view.expiresAt ? { ok: false, reason: 'expired_token' } : { ok: true, view };
    },
    renew(token) {
      const view = read(token);
      // A tab that could not poll for a while (hidden, offline) still gets its token back.
      return view && now() <= view.expiresAt + ttlMs ? sign(view.id, view.build, view.locale, view.owner) : null;
    },
  };
}
