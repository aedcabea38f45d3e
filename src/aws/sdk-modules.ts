import { createRequire } from 'node:module';

const requireModule = createRequire(import.meta.url);

/*
 * The AWS SDK packages every deploy uses, loaded with `require` on first call. They are
 * CommonJS bundles: imported from ESM, Node parses their files again to find the exports,
 * which costs almost as much as loading them (S3, STS and the credential chain: about 130 ms
 * of CPU through require, 210 ms through import). Either way yields the same module
 * instances, so classes and `instanceof` agree with code that imports them.
 */
export const s3Sdk = (): typeof import('@aws-sdk/client-s3') => requireModule('@aws-sdk/client-s3');

export const stsSdk = (): typeof import('@aws-sdk/client-sts') => requireModule('@aws-sdk/client-sts');

export const credentialProvidersSdk = (): typeof import('@aws-sdk/credential-providers') =>
  requireModule('@aws-sdk/credential-providers');

/** Cloud Control's commands, asked for on every create, poll and read: `import()` would resolve the package each time. */
export const cloudControlSdk = (): typeof import('@aws-sdk/client-cloudcontrol') =>
  requireModule('@aws-sdk/client-cloudcontrol');
