import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { isRecord } from '../../../../http-events/payload-v2.js';
import type { IngressRequest } from '../../../ingress.js';
import type { SandboxResponse } from '../../../request.js';
import type { ResourceModel } from '../../../resources.js';
import { jsonAnswer } from '../../../../http-events/request-parts.js';
import { httpResponses } from '../../../../http-events/gateway-responses.js';
import { identityValue } from '../../../../http-events/authorizers/invoke-authorizer.js';
import type { Authorization } from '../../../../http-events/authorizers/rest-authorizer.js';

const ALGORITHMS: Readonly<Record<string, string>> = { RS256: 'sha256', RS384: 'sha384', RS512: 'sha512' };
const FETCH_TIMEOUT_MS = 5000;
/** API Gateway keeps an issuer's keys for up to two hours. */
const KEYS_TTL_MS = 2 * 60 * 60 * 1000;

/**
 * An issuer's signing keys, found through its OpenID discovery document
 * (`{issuer}/.well-known/openid-configuration` → `jwks_uri`) and kept a while; a token
 * naming a key not in the kept set fetches them again.
 */
export class JwksCache {
  private readonly keys = new Map<string, { fetchedAt: number; keys: JsonWebKey[] }>();

  async key(issuer: string, kid: string | undefined): Promise<JsonWebKey | undefined> {
    const pick = (keys: JsonWebKey[]): JsonWebKey | undefined =>
      keys.find((key) => kid === undefined || key.kid === kid);
    const kept = this.keys.get(issuer);
    if (kept && Date.now() - kept.fetchedAt < KEYS_TTL_MS) {
      const found = pick(kept.keys);
      if (found) return found;
    }
    const keys = await fetchKeys(issuer);
    this.keys.set(issuer, { fetchedAt: Date.now(), keys });
    return pick(keys);
  }
}

async function fetchKeys(issuer: string): Promise<JsonWebKey[]> {
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  const discovery = (await (
    await fetch(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal })
  ).json()) as unknown;
  const jwksUri =
    isRecord(discovery) && typeof discovery.jwks_uri === 'string' ? discovery.jwks_uri : undefined;
  if (!jwksUri) return [];
  const jwks = (await (await fetch(jwksUri, { signal })).json()) as unknown;
  return isRecord(jwks) && Array.isArray(jwks.keys) ? (jwks.keys.filter(isRecord) as JsonWebKey[]) : [];
}

/**
 * An HTTP API's JWT authorizer: the bearer token from the identity source, signed (RS256,
 * RS384 or RS512) by a key of the configured issuer, with that `iss`, an `aud` or
 * `client_id` in the configured audience, not expired nor early; a route with
 * authorization scopes also needs one of them in the token's `scope` / `scp`. The claims
 * (as strings) and scopes reach the integration as `requestContext.authorizer.jwt`.
 */
export async function authorizeJwt(
  keys: JwksCache,
  authorizer: ResourceModel,
  route: ResourceModel,
  request: IngressRequest,
  stageVariables: Record<string, string>,
): Promise<Authorization> {
  const sources = Array.isArray(authorizer.IdentitySource)
    ? authorizer.IdentitySource.map(String)
    : ['$request.header.Authorization'];
  const raw = sources.map((source) => identityValue(source, request, stageVariables))[0];
  if (raw === undefined) return { kind: 'refused', response: httpResponses.unauthorized() };
  const config = isRecord(authorizer.JwtConfiguration) ? authorizer.JwtConfiguration : {};
  const issuer = typeof config.Issuer === 'string' ? config.Issuer : '';
  const audience = Array.isArray(config.Audience) ? config.Audience.map(String) : [];
  const checked = await checkToken(keys, raw.replace(/^Bearer\s+/i, ''), issuer, audience);
  if (typeof checked === 'string') return { kind: 'refused', response: invalidToken(checked) };
  const tokenScopes = scopesOf(checked);
  const required = Array.isArray(route.AuthorizationScopes) ? route.AuthorizationScopes.map(String) : [];
  if (required.length > 0 && !required.some((scope) => tokenScopes.includes(scope))) {
    return { kind: 'refused', response: httpResponses.forbidden() };
  }
  return {
    kind: 'allowed',
    authorizer: {
      jwt: {
        claims: Object.fromEntries(Object.entries(checked).map(([name, value]) => [name, claimText(value)])),
        scopes: tokenScopes.length > 0 ? tokenScopes : null,
      },
    },
  };
}

/** The token's claims when it is valid, else why not (the www-authenticate description). */
export async function checkToken(
  keys: JwksCache,
  token: string,
  issuer: string,
  audience: readonly string[],
  now = Date.now(),
): Promise<Record<string, unknown> | string> {
  const parts = token.split('.');
  if (parts.length !== 3) return 'the token is malformed';
  const header = decodePart(parts[0]!);
  const claims = decodePart(parts[1]!);
  if (!header || !claims) return 'the token is malformed';
  const algorithm = ALGORITHMS[String(header.alg)];
  if (!algorithm) return `the token's algorithm ${String(header.alg)} is not supported`;
  if (claims.iss !== issuer) return 'the token does not have a valid issuer';
  let jwk: JsonWebKey | undefined;
  try {
    jwk = await keys.key(issuer, typeof header.kid === 'string' ? header.kid : undefined);
  } catch {
    return "the issuer's signing keys could not be fetched";
  }
  if (!jwk) return 'the token is signed by an unknown key';
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
  let valid = false;
  try {
    valid = verify(
      algorithm,
      signed,
      createPublicKey({ key: jwk, format: 'jwk' }),
      Buffer.from(parts[2]!, 'base64url'),
    );
  } catch {
    valid = false;
  }
  if (!valid) return 'the token does not have a valid signature';
  const seconds = now / 1000;
  if (typeof claims.exp !== 'number' || claims.exp <= seconds) return 'the token has expired';
  if (typeof claims.nbf === 'number' && claims.nbf > seconds) return 'the token is not valid yet';
  if (typeof claims.iat === 'number' && claims.iat > seconds) return 'the token was issued in the future';
  const audiences = [...(Array.isArray(claims.aud) ? claims.aud : [claims.aud]), claims.client_id].filter(
    (value): value is string => typeof value === 'string',
  );
  if (!audiences.some((value) => audience.includes(value))) return 'the token does not have a valid audience';
  return claims;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function scopesOf(claims: Record<string, unknown>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (Array.isArray(raw)) return raw.map(String);
  return typeof raw === 'string' ? raw.split(' ').filter((scope) => scope !== '') : [];
}

/** Claims reach the integration as strings; a list as `[a b]`. */
function claimText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(String).join(' ')}]`;
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function invalidToken(description: string): SandboxResponse {
  return jsonAnswer(
    401,
    { message: 'Unauthorized' },
    {
      'x-amzn-errortype': 'UnauthorizedException',
      'www-authenticate': `Bearer scope="" error="invalid_token" error_description="${description}"`,
    },
  );
}
