import { CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import { S3Client } from '@aws-sdk/client-s3';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { CdkdError } from '../errors.js';
import { proxyRequestHandler } from './proxy-agent.js';
import { proxyConfigured } from './proxy-settings.js';

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
  requestHandler?: ReturnType<typeof proxyRequestHandler>;
};

/**
 * The one place SDK clients are built. The endpoint is never set here: the SDK
 * reads AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_<SERVICE> itself, which is how a
 * user points cdkd at the sandbox or any other AWS-compatible endpoint. The SDK
 * reads no proxy variables, so with HTTPS_PROXY / HTTP_PROXY set every client gets
 * cdkd's routing agent (spec 003, "Proxy handling").
 */
export class AwsClients {
  private readonly credentials: ReturnType<typeof fromNodeProviderChain>;
  private readonly cache = new Map<string, unknown>();
  private regionPromise: Promise<string> | undefined;
  private readonly requestHandler: ClientConfig['requestHandler'];

  constructor(private readonly options: AwsClientOptions = {}) {
    this.credentials = fromNodeProviderChain(options.profile ? { profile: options.profile } : {});
    if (proxyConfigured(process.env)) this.requestHandler = proxyRequestHandler(process.env);
  }

  /** The region: flag, then env, then the profile; an error naming all three when none is set. */
  region(): Promise<string> {
    this.regionPromise ??= this.resolveRegion();
    return this.regionPromise;
  }

  async s3(region?: string): Promise<S3Client> {
    const config = await this.config(region);
    return this.cached(
      `s3:${config.region}`,
      () => new S3Client({ ...config, forcePathStyle: usesCustomEndpoint('S3') }),
    );
  }

  sts(region?: string): Promise<STSClient> {
    return this.client(STSClient, region);
  }

  ssm(region?: string): Promise<SSMClient> {
    return this.client(SSMClient, region);
  }

  cloudControl(region?: string): Promise<CloudControlClient> {
    return this.client(CloudControlClient, region);
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
    return {
      region: region ?? (await this.region()),
      ...(this.options.profile ? { profile: this.options.profile } : {}),
      credentials: this.credentials,
      ...(this.requestHandler ? { requestHandler: this.requestHandler } : {}),
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
