import { readFileSync } from 'node:fs';
import { CdkdError } from '../errors.js';

/**
 * The certificates HTTPS calls trust: `--ca-bundle-path`, else AWS_CA_BUNDLE, as the AWS CLI
 * and the CDK CLI read them (for a proxy or endpoint that signs TLS with a company CA). Like
 * theirs, the bundle replaces the default roots. The SDK for JavaScript v3 reads neither.
 */
export function caBundle(path: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const chosen = path ?? (env.AWS_CA_BUNDLE?.trim() || undefined);
  if (chosen === undefined) return undefined;
  try {
    return readFileSync(chosen, 'utf8');
  } catch (cause) {
    const from = path !== undefined ? '--ca-bundle-path' : 'AWS_CA_BUNDLE';
    throw new CdkdError(
      'CA_BUNDLE_UNREADABLE',
      `${from} names ${chosen}, which cannot be read: ${(cause as Error).message}`,
      { hint: `Point ${from} at a PEM file of certificates, or unset it.`, cause },
    );
  }
}

/** Node's codes for a TLS certificate it could not verify (self-signed, unknown issuer, expired ...). */
const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

/** True when `error` (or what it wraps) is a TLS certificate that could not be verified. */
export function isUntrustedCertificate(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CERTIFICATE_CODES.test(code)) return true;
    current = current.cause;
  }
  return false;
}

/** The refusal for an endpoint whose certificate is not trusted, with the flag that fixes it. */
export function untrustedCertificateError(cause: unknown): CdkdError {
  return new CdkdError(
    'TLS_CERTIFICATE_UNTRUSTED',
    `The AWS endpoint's TLS certificate is not trusted: ${(cause as Error).message}`,
    {
      hint: "If a proxy or endpoint signs TLS with your organisation's CA, pass --ca-bundle-path FILE (or set AWS_CA_BUNDLE) to trust it.",
      cause,
    },
  );
}
