import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Storage } from '../../../storage/storage.js';

const NAMESPACE = 'ecr/registry';
const KEY_ID = 'token-key';
/** ECR's authorization tokens last 12 hours. */
const LIFETIME_MS = 12 * 60 * 60 * 1000;
const USER = 'AWS';

/** What a token grants: the registry of one account and region, until it expires. */
export interface TokenGrant {
  accountId: string;
  region: string;
  expiresAt: number;
}

/**
 * GetAuthorizationToken's tokens and their check: `base64("AWS:" + password)`, where the
 * password carries its account, region and expiry and an HMAC under a key the sandbox
 * keeps in storage (so tokens outlive a restart, as AWS's do).
 */
export class RegistryTokens {
  private constructor(private readonly key: Buffer) {}

  static async load(storage: Storage): Promise<RegistryTokens> {
    const [stored] = await storage.listDocuments<{ key: string }>(NAMESPACE);
    if (stored) return new RegistryTokens(Buffer.from(stored.doc.key, 'base64'));
    const key = randomBytes(32);
    await storage.putDocument(NAMESPACE, KEY_ID, { key: key.toString('base64') });
    return new RegistryTokens(key);
  }

  /** The `authorizationToken` GetAuthorizationToken answers (base64 of `AWS:<password>`). */
  issue(accountId: string, region: string, now = Date.now()): { token: string; expiresAt: number } {
    const grant: TokenGrant = { accountId, region, expiresAt: now + LIFETIME_MS };
    const payload = Buffer.from(JSON.stringify(grant)).toString('base64url');
    const password = `${payload}.${this.sign(payload)}`;
    return { token: Buffer.from(`${USER}:${password}`).toString('base64'), expiresAt: grant.expiresAt };
  }

  /**
   * The grant of a request's `Authorization: Basic …` header: `expired` for a genuine token
   * past its time, undefined for anything else (no header, another scheme or user, a token
   * the sandbox did not issue).
   */
  verify(authorization: string | undefined, now = Date.now()): TokenGrant | 'expired' | undefined {
    const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
    if (!match) return undefined;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0 || decoded.slice(0, colon) !== USER) return undefined;
    const [payload, signature] = decoded.slice(colon + 1).split('.');
    if (!payload || !signature) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const grant = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenGrant;
    return grant.expiresAt <= now ? 'expired' : grant;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
