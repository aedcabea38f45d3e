import { AwsClients } from '../../aws/client-factory.js';
import { isUntrustedCertificate, untrustedCertificateError } from '../../aws/ca-bundle.js';
import { CdkdError } from '../../errors.js';
import { stateBucketName } from '../../state/bucket-names.js';
import type { StateBackend } from '../../state/index.js';
import { stsSdk } from '../../aws/sdk-modules.js';

export interface SessionOptions {
  region?: string;
  profile?: string;
  /** --ca-bundle-path (else AWS_CA_BUNDLE): the certificates HTTPS calls trust. */
  caBundlePath?: string;
  stateBucket?: string;
  statePrefix: string;
}

/**
 * What every command that talks to AWS shares: the clients, the account, and
 * the state backend, each resolved once and on first use (their modules too,
 * so building a session costs nothing until a command talks to AWS).
 */
export class Session {
  readonly clients: AwsClients;
  private account: Promise<string> | undefined;
  private backend: Promise<StateBackend> | undefined;

  constructor(readonly options: SessionOptions) {
    this.clients = new AwsClients({
      region: options.region,
      profile: options.profile,
      ...(options.caBundlePath ? { caBundlePath: options.caBundlePath } : {}),
    });
  }

  region(): Promise<string> {
    return this.clients.region();
  }

  accountId(): Promise<string> {
    this.account ??= this.lookUpAccount();
    return this.account;
  }

  stateBucketName(): Promise<string> {
    return stateBucketName(this.options.stateBucket, () => this.accountId());
  }

  stateBackend(): Promise<StateBackend> {
    this.backend ??= this.stateBucketName().then(async (bucket) => {
      const { openStateBackend } = await import('../../state/state-backend.js');
      return openStateBackend(this.clients, bucket, this.options.statePrefix);
    });
    return this.backend;
  }

  private async lookUpAccount(): Promise<string> {
    try {
      const { GetCallerIdentityCommand } = stsSdk();
      const sts = await this.clients.sts();
      const identity = await sts.send(new GetCallerIdentityCommand({}));
      if (!identity.Account) throw new Error('GetCallerIdentity returned no account');
      return identity.Account;
    } catch (cause) {
      if (cause instanceof CdkdError) throw cause;
      if (isUntrustedCertificate(cause)) throw untrustedCertificateError(cause);
      throw new CdkdError(
        'CREDENTIALS_UNAVAILABLE',
        'cdkd could not find out which AWS account it is working in.',
        {
          hint: 'Check your credentials (aws sts get-caller-identity), --profile, and AWS_ENDPOINT_URL if you use the sandbox.',
          cause,
        },
      );
    }
  }
}
