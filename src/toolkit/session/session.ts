import { AwsClients } from '../../aws/client-factory.js';
import { CdkdError } from '../../errors.js';
import { stateBucketName } from '../../state/bucket-names.js';
import type { StateBackend } from '../../state/index.js';
import { DEFAULT_QUALIFIER, deployRoleName, roleArn } from '../bootstrap/role-names.js';
import { isUntrustedCertificate, untrustedCertificateError } from '../../aws/ca-bundle.js';
import { coreSdk } from '../../aws/sdk-modules.js';

export interface SessionOptions {
  region?: string;
  profile?: string;
  /** --ca-bundle-path (else AWS_CA_BUNDLE): the certificates HTTPS calls trust. */
  caBundlePath?: string;
  stateBucket?: string;
  statePrefix: string;
  /** `--role-arn`: every call goes through this role (assumed from the credentials in use). */
  roleArn?: string;
  /** Asks for a profile's MFA code (the CLI asks on a terminal; without it such a profile is refused). */
  mfaCode?: (serial: string) => Promise<string>;
}

/** Where a stack lives, and the bootstrap qualifier its account's deploy role was made with. */
export interface AccountRoute {
  accountId: string;
  region: string;
  qualifier?: string;
}

/**
 * What every command that talks to AWS shares: the clients, the account, and
 * the state backend, each resolved once and on first use (their modules too,
 * so building a session costs nothing until a command talks to AWS). A stack in
 * another account is reached through {@link Session.forAccount}.
 */
export class Session {
  readonly clients: AwsClients;
  private account: Promise<string> | undefined;
  private backend: Promise<StateBackend> | undefined;
  private readonly accounts = new Map<string, Promise<Session>>();

  constructor(
    readonly options: SessionOptions,
    clients?: AwsClients,
  ) {
    const own = new AwsClients({
      region: options.region,
      profile: options.profile,
      ...(options.mfaCode ? { mfaCode: options.mfaCode } : {}),
      ...(options.caBundlePath ? { caBundlePath: options.caBundlePath } : {}),
    });
    this.clients =
      clients ??
      (options.roleArn
        ? own.assumingRole({
            roleArn: options.roleArn,
            sessionName: 'cdkd',
            refused: roleArnRefused(options.roleArn),
          })
        : own);
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

  /**
   * The session for a stack in `route.accountId`: this one for the credentials' own account;
   * for another, one acting through cdkd's deploy role there (`cdkd bootstrap --trust`), one
   * per role however many stacks use it, whose state, locks, journals and assets live in that
   * account's cdkd buckets. The role is assumed (and the account checked) here, so a role that
   * does not trust these credentials refuses before anything is read or changed.
   */
  async forAccount(route: AccountRoute): Promise<Session> {
    const home = await this.accountId();
    if (route.accountId === home) return this;
    const qualifier = route.qualifier ?? DEFAULT_QUALIFIER;
    const role = roleArn(
      route.accountId,
      route.region,
      deployRoleName(qualifier, route.accountId, route.region),
    );
    let session = this.accounts.get(role);
    if (!session) {
      session = this.assumeDeployRole(route, role, home, qualifier);
      this.accounts.set(role, session);
    }
    return session;
  }

  /**
   * The session whose state a command without an app acts in: this one with no `accountId`
   * (or the credentials' own), else {@link forAccount} for that account in `region` (the deploy
   * role is per region). The one route `rollback`, `drift`, `scrub`, `state *`, `force-unlock`,
   * `events`, `undo`, `gc` and `export` take to a stack in another account (`--account`).
   */
  async inAccount(accountId: string | undefined, region?: string): Promise<Session> {
    if (accountId === undefined) return this;
    if (!/^\d{12}$/.test(accountId)) {
      throw new CdkdError('ACCOUNT_INVALID', `--account ${accountId} is not an AWS account id.`, {
        hint: 'Pass the 12-digit id of the account whose cdkd state the command acts in.',
      });
    }
    return this.forAccount({ accountId, region: region ?? (await this.region()) });
  }

  private async assumeDeployRole(
    route: AccountRoute,
    role: string,
    home: string,
    qualifier: string,
  ): Promise<Session> {
    const clients = this.clients.assumingRole({
      roleArn: role,
      sessionName: `cdkd-${home}`,
      refused: (cause) => deployRoleRefused(route, role, home, qualifier, cause),
    });
    const session = new Session(
      { ...this.options, stateBucket: `cdkd-state-${route.accountId}`, roleArn: role },
      clients,
    );
    const actual = await session.accountId();
    if (actual !== route.accountId) {
      throw new CdkdError(
        'ACCOUNT_MISMATCH',
        `The deploy role ${role} acts in account ${actual}, not ${route.accountId}.`,
        {
          hint: 'Check the stack environment and the role; the role name holds the account it was bootstrapped for.',
        },
      );
    }
    return session;
  }

  private async lookUpAccount(): Promise<string> {
    try {
      const { GetCallerIdentityCommand } = await coreSdk();
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

function roleArnRefused(role: string): (cause: unknown) => CdkdError {
  return (cause) =>
    new CdkdError(
      'ROLE_NOT_ASSUMABLE',
      `--role-arn ${role} may not be assumed with the credentials in use.`,
      {
        hint: 'Check that the role exists and that its trust policy names your account or principal.',
        cause,
      },
    );
}

function deployRoleRefused(
  route: AccountRoute,
  role: string,
  caller: string,
  qualifier: string,
  cause: unknown,
): CdkdError {
  const qualified = qualifier === DEFAULT_QUALIFIER ? '' : ` --qualifier ${qualifier}`;
  return new CdkdError(
    'ROLE_NOT_ASSUMABLE',
    `A stack in account ${route.accountId} is deployed through cdkd's deploy role ${role}, which does not exist or does not trust account ${caller}; nothing was changed.`,
    {
      hint: `With credentials for account ${route.accountId}, run: cdkd bootstrap aws://${route.accountId}/${route.region} --trust ${caller}${qualified} (or pass --role-arn for a role that trusts you).`,
      cause,
    },
  );
}
