import type { CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SSMClient } from '@aws-sdk/client-ssm';
import type { STSClient } from '@aws-sdk/client-sts';
import type { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { CdkdError } from '../errors.js';

export interface AwsClientOptions {
  /** From --region; wins over AWS_REGION / AWS_DEFAULT_REGION and the profile. */
  region?: string;
  /** From --profile; wins over AWS_PROFILE. */
  profile?: string;
}

type ClientConfig = {
  region: string;
  profile?: string;
  credentials: ReturnType<typeof fromNodeProviderChain>;
};

/**
 * The one place SDK clients are built. The endpoint is never set here: the SDK
 * reads AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_<SERVICE> itself, which is how a
 * user points cdkd at the sandbox or any other AWS-compatible endpoint.
 * The SDK packages are imported on first use, so a command that never talks
 * to AWS (or `--help`) does not pay for loading them.
 */
export class AwsClients {
  private credentials: Promise<ReturnType<typeof fromNodeProviderChain>> | undefined;
  private readonly cache = new Map<string, unknown>();
  private regionPromise: Promise<string> | undefined;

  constructor(private readonly options: AwsClientOptions = {}) {}

  /** The region: flag, then env, then the profile; an error naming all three when none is set. */
  region(): Promise<string> {
    this.regionPromise ??= this.resolveRegion();
    return this.regionPromise;
  }

  async s3(region?: string): Promise<S3Client> {
    const { S3Client } = await import('@aws-sdk/client-s3');
    const config = await this.config(region);
    return this.cached(
      `s3:${config.region}`,
      () => new S3Client({ ...config, forcePathStyle: usesCustomEndpoint('S3') }),
    );
  }

  async sts(region?: string): Promise<STSClient> {
    return this.client((await import('@aws-sdk/client-sts')).STSClient, region);
  }

  async ssm(region?: string): Promise<SSMClient> {
    return this.client((await import('@aws-sdk/client-ssm')).SSMClient, region);
  }

  async cloudControl(region?: string): Promise<CloudControlClient> {
    return this.client((await import('@aws-sdk/client-cloudcontrol')).CloudControlClient, region);
  }

  /**
   * Any SDK v3 client, built once per region with cdkd's region and credentials:
   * `await clients.client(IAMClient, region)`. (S3 has its own method for path-style.)
   */
  async client<C>(Client: new (config: ClientConfig) => C, region?: string): Promise<C> {
    const config = await this.config(region);
    return this.cached(`${Client.name}:${config.region}`, () => new Client(config));
  }

  private async config(region?: string): Promise<ClientConfig> {
    const profile = this.options.profile;
    // One provider chain for every client, so credentials are resolved once.
    this.credentials ??= import('@aws-sdk/credential-providers').then(({ fromNodeProviderChain }) =>
      fromNodeProviderChain(profile ? { profile } : {}),
    );
    return {
      region: region ?? (await this.region()),
      ...(profile ? { profile } : {}),
      credentials: await this.credentials,
    };
  }

  private cached<T>(key: string, build: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, build());
    return this.cache.get(key) as T;
  }

  private async resolveRegion(): Promise<string> {
    if (this.options.region) return this.options.region;
    const env = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
    if (env) return env;
    const { STSClient } = await import('@aws-sdk/client-sts');
    const probe = new STSClient(this.options.profile ? { profile: this.options.profile } : {});
    try {
      return await probe.config.region();
    } catch (cause) {
      throw new CdkdError('REGION_MISSING', 'No AWS region is configured.', {
        hint: 'Pass --region, set AWS_REGION, or set a region in your AWS profile.',
        cause,
      });
    } finally {
      probe.destroy();
    }
  }
}

/** True when a custom endpoint is configured for the service (S3 then needs path-style URLs). */
export function usesCustomEndpoint(serviceEnvSuffix: string): boolean {
  return Boolean(process.env[`AWS_ENDPOINT_URL_${serviceEnvSuffix}`] || process.env.AWS_ENDPOINT_URL);
}
