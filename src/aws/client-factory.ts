import type { CloudControlClient } from '@aws-sdk/client-cloudcontrol';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SSMClient } from '@aws-sdk/client-ssm';
import type { STSClient } from '@aws-sdk/client-sts';
import type { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import { CdkdError } from '../errors.js';
import { credentialError } from './credential-errors.js';
import { awsErrorCode } from './error-class.js';
import { refreshingCredentials } from './refreshing-credentials.js';
import type { proxyRequestHandler } from './proxy-agent.js';
import { caBundle } from './ca-bundle.js';
import { proxyConfigured } from './proxy-settings.js';
import { cloudControlSdk, coreSdk } from './sdk-modules.js';

export interface AwsClientOptions {
  /** From --region; wins over AWS_REGION / AWS_DEFAULT_REGION and the profile. */
  region?: string;
  /** From --profile; wins over AWS_PROFILE. */
  profile?: string;
  /** From --ca-bundle-path; wins over AWS_CA_BUNDLE. */
  caBundlePath?: string;
  /** Asks for the code of a profile's `mfa_serial` device (absent: such a profile is refused). */
  mfaCode?: (serial: string) => Promise<string>;
}

type Credentials = ReturnType<typeof fromNodeProviderChain>;

type ClientConfig = {
  region: string;
  profile?: string;
  credentials: Credentials;
  maxAttempts?: number;
  requestHandler?: Partial<ReturnType<typeof proxyRequestHandler>>;
};

/** Per-client settings beside the region: `maxAttempts: 1` for a caller that runs its own retry schedule. */
export interface ClientTuning {
  maxAttempts?: number;
}

/**
 * The SDK's own retry off: for a caller with its own schedule, and for a create call that
 * carries no idempotency token, whose lost answer the engine's retry settles by looking for
 * what it made before sending it again (spec 003, "Ambiguous creates").
 */
export const SINGLE_ATTEMPT: ClientTuning = { maxAttempts: 1 };

/**
 * S3 only: `checksumsWhenRequired` computes a request checksum only where S3 requires one.
 * The SDK's default adds a CRC32 to every PutObject, and to a pre-signed PUT URL the CRC32
 * of the empty body its command had, which S3 then holds the uploader's body to.
 * `sendBodyAtOnce` drops the SDK's `Expect: 100-continue` on bodies of 2 MB and more: asking
 * first costs a round trip per write, and it only spares an upload S3 would refuse.
 */
export interface S3Tuning extends ClientTuning {
  checksumsWhenRequired?: boolean;
  sendBodyAtOnce?: boolean;
}

export interface AssumedRole {
  roleArn: string;
  externalId?: string;
  sessionName: string;
  /** The error for STS refusing the role (not trusted, or no such role); a generic one without it. */
  refused?: (cause: unknown) => CdkdError;
}

/**
 * The one place SDK clients are built. The endpoint is never set here: the SDK
 * reads AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_<SERVICE> itself, which is how a
 * user points cdkd at the sandbox or any other AWS-compatible endpoint. The SDK
 * reads no proxy variables, so with HTTPS_PROXY / HTTP_PROXY set every client gets
 * cdkd's routing agent (spec 003, "Proxy handling"). The SDK packages are imported
 * on first use, so a command that never talks to AWS (or `--help`) does not pay for
 * loading them.
 */
export class AwsClients {
  private credentials: Promise<Credentials> | undefined;
  private requestHandler: Promise<ClientConfig['requestHandler']> | undefined;
  private readonly cache = new Map<string, unknown>();
  private regionPromise: Promise<string> | undefined;

  constructor(
    private readonly options: AwsClientOptions = {},
    credentials?: Promise<Credentials>,
  ) {
    this.credentials = credentials;
  }

  /**
   * Clients with the same settings under a role these credentials assume (a CDK lookup role,
   * cdkd's deploy role in another account, --role-arn). The role is assumed once for all of
   * them and again shortly before its session expires (refreshing-credentials.ts).
   */
  assumingRole(role: AssumedRole): AwsClients {
    const credentials = Promise.all([coreSdk(), this.sharedCredentials(), this.region()]).then(
      ([{ fromTemporaryCredentials }, masterCredentials, region]) => {
        const assume = fromTemporaryCredentials({
          masterCredentials,
          params: {
            RoleArn: role.roleArn,
            RoleSessionName: role.sessionName,
            ...(role.externalId ? { ExternalId: role.externalId } : {}),
          },
          clientConfig: { region },
        });
        return refreshingCredentials(async () => {
          try {
            return await assume();
          } catch (error) {
            throw assumeRoleError(error, role, this.options);
          }
        }) as Credentials;
      },
    );
    return new AwsClients(this.options, credentials);
  }

  /** The region: flag, then env, then the profile; an error naming all three when none is set. */
  region(): Promise<string> {
    this.regionPromise ??= this.resolveRegion();
    return this.regionPromise;
  }

  async s3(region?: string, tuning: S3Tuning = {}): Promise<S3Client> {
    const { S3Client } = await coreSdk();
    const config = await this.config(region, tuning);
    const whenRequired = tuning.checksumsWhenRequired === true;
    const atOnce = tuning.sendBodyAtOnce === true;
    return this.cached(
      `s3:${config.region}${tuningKey(tuning)}${whenRequired ? ':checksums=when-required' : ''}${atOnce ? ':at-once' : ''}`,
      () =>
        new S3Client({
          ...config,
          forcePathStyle: usesCustomEndpoint('S3'),
          ...(whenRequired && { requestChecksumCalculation: 'WHEN_REQUIRED' as const }),
          ...(atOnce && { expectContinueHeader: false }),
        }),
    );
  }

  async sts(region?: string): Promise<STSClient> {
    return this.client((await coreSdk()).STSClient, region);
  }

  async ssm(region?: string): Promise<SSMClient> {
    return this.client((await import('@aws-sdk/client-ssm')).SSMClient, region);
  }

  async cloudControl(region?: string): Promise<CloudControlClient> {
    return this.client((await cloudControlSdk()).CloudControlClient, region);
  }

  /**
   * Any SDK v3 client, built once per region with cdkd's region and credentials:
   * `await clients.client(IAMClient, region)`. (S3 has its own method for path-style.)
   */
  async client<C>(
    Client: new (config: ClientConfig) => C,
    region?: string,
    tuning: ClientTuning = {},
  ): Promise<C> {
    const config = await this.config(region, tuning);
    return this.cached(`${Client.name}:${config.region}${tuningKey(tuning)}`, () => new Client(config));
  }

  /** One provider chain for every client, so credentials are resolved once. */
  private sharedCredentials(): Promise<Credentials> {
    const profile = this.options.profile;
    const mfaCode = this.options.mfaCode;
    const named = profile ?? process.env.AWS_PROFILE;
    this.credentials ??= coreSdk().then(({ fromIni, fromNodeProviderChain }) => {
      // A named profile is the only source, as the AWS CLI takes it: its own failure is the one
      // reported, not the chain's "could not load credentials from any providers".
      const settings = { ...(mfaCode ? { mfaCodeProvider: mfaCode } : {}) };
      const chain = named ? fromIni({ profile: named, ...settings }) : fromNodeProviderChain(settings);
      // Shared by every client, so a credential_process runs and an MFA code is asked once a session.
      return refreshingCredentials(async () => {
        try {
          return await chain();
        } catch (error) {
          throw credentialError(error, named ? { profile: named } : {}) ?? error;
        }
      }) as Credentials;
    });
    return this.credentials;
  }

  /** cdkd's own agents, only when a proxy or a CA bundle calls for them: the SDK's default otherwise. */
  private agents(): Promise<ClientConfig['requestHandler']> {
    this.requestHandler ??= (async () => {
      const ca = caBundle(this.options.caBundlePath, process.env);
      if (proxyConfigured(process.env)) {
        const { proxyRequestHandler } = await import('./proxy-agent.js');
        return proxyRequestHandler(process.env, ca);
      }
      if (ca === undefined) return undefined;
      const { Agent } = await import('node:https');
      return { httpsAgent: new Agent({ keepAlive: true, ca }) };
    })();
    return this.requestHandler;
  }

  private async config(region?: string, tuning: ClientTuning = {}): Promise<ClientConfig> {
    const requestHandler = await this.agents();
    return {
      region: region ?? (await this.region()),
      ...(this.options.profile ? { profile: this.options.profile } : {}),
      credentials: await this.sharedCredentials(),
      ...(tuning.maxAttempts !== undefined ? { maxAttempts: tuning.maxAttempts } : {}),
      ...(requestHandler ? { requestHandler } : {}),
    };
  }

  private cached<T>(key: string, build: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, build());
    return this.cache.get(key) as T;
  }

  private async resolveRegion(): Promise<string> {
    if (this.options.region) return checkedRegion(this.options.region, '--region');
    const env = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
    if (env) return checkedRegion(env, process.env.AWS_REGION ? 'AWS_REGION' : 'AWS_DEFAULT_REGION');
    const { STSClient } = await coreSdk();
    const probe = new STSClient(this.options.profile ? { profile: this.options.profile } : {});
    try {
      return checkedRegion(await probe.config.region(), 'the AWS profile');
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

/** STS's refusal of a role as the caller's typed error; any other failure as the credentials' own. */
function assumeRoleError(error: unknown, role: AssumedRole, options: AwsClientOptions): unknown {
  if (error instanceof CdkdError) return error;
  const code = awsErrorCode(error);
  if (code === 'AccessDenied' || code === 'AccessDeniedException') {
    return (
      role.refused?.(error) ??
      new CdkdError(
        'ROLE_NOT_ASSUMABLE',
        `The role ${role.roleArn} may not be assumed with the credentials in use.`,
        {
          hint: 'Check that the role exists and that its trust policy names your account or principal (and the ExternalId, if it asks for one).',
          cause: error,
        },
      )
    );
  }
  const named = options.profile ?? process.env.AWS_PROFILE;
  return credentialError(error, named ? { profile: named } : {}) ?? error;
}

function tuningKey(tuning: ClientTuning): string {
  return tuning.maxAttempts !== undefined ? `:attempts=${tuning.maxAttempts}` : '';
}

/**
 * A region name as the SDK can use it (a DNS label: lower-case letters, digits, hyphens);
 * anything else would surface later as a credentials or endpoint failure naming neither.
 */
function checkedRegion(region: string, source: string): string {
  if (/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(region)) return region;
  throw new CdkdError('REGION_INVALID', `"${region}" (from ${source}) is not an AWS region name.`, {
    hint: 'Use a region name such as us-east-1 (aws ec2 describe-regions lists them).',
  });
}

/** True unless AWS_ENDPOINT_URL points every service at another endpoint (the sandbox, say). */
export function talksToAws(): boolean {
  return !process.env.AWS_ENDPOINT_URL;
}

/** True when a custom endpoint is configured for the service (S3 then needs path-style URLs). */
export function usesCustomEndpoint(serviceEnvSuffix: string): boolean {
  return Boolean(process.env[`AWS_ENDPOINT_URL_${serviceEnvSuffix}`] || process.env.AWS_ENDPOINT_URL);
}
