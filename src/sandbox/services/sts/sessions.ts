import { createHash, randomBytes } from 'node:crypto';
import type { AssumedSession, RoleSessions, SessionCredentials } from '../../ports/index.js';
import type { ResourceHandlers } from '../../resources.js';
import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'sts/sessions';
const SERVICE_SESSION_MS = 12 * 3600_000;
/** A role ARN: its account and its name (the last part of its path). */
export const ROLE_ARN = /^arn:aws:iam::(\d{12}):role\/(?:[\w+=,.@-]+\/)*([\w+=,.@-]{1,64})$/;

/** Sessions are found by their token, which storage keeps only as a digest. */
const keyOf = (sessionToken: string) => createHash('sha256').update(sessionToken).digest('hex');

/**
 * The role sessions AssumeRole issued, by session token (the access key id selects only the
 * account), kept in storage so credentials stay the role's across a restart.
 */
export class SessionStore implements RoleSessions {
  private readonly sessions = new Map<string, AssumedSession>();

  private constructor(
    private readonly storage: Storage,
    private readonly resources: ResourceHandlers,
  ) {}

  static async load(storage: Storage, resources: ResourceHandlers): Promise<SessionStore> {
    const store = new SessionStore(storage, resources);
    for (const { id, doc } of await storage.listDocuments<AssumedSession>(NAMESPACE))
      store.sessions.set(id, doc);
    return store;
  }

  find(sessionToken: string): AssumedSession | undefined {
    return this.sessions.get(keyOf(sessionToken));
  }

  /**
   * A service's own session of a role, for as long as Lambda's credentials last (12 hours).
   * Kept in memory only: what it is handed to (a function's process) ends with the sandbox.
   */
  open(roleArn: string, sessionName: string, region: string): SessionCredentials | undefined {
    const match = ROLE_ARN.exec(roleArn);
    const role = match && this.resources.resolve('AWS::IAM::Role')?.read(match[2]!, region, match[1]!);
    if (!match || !role) return undefined;
    const sessionToken = randomBytes(48).toString('base64');
    this.sessions.set(keyOf(sessionToken), {
      roleArn,
      roleId: String((role as { RoleId?: unknown }).RoleId ?? ''),
      sessionName: sessionName.slice(0, 64),
      account: match[1]!,
      expiresAt: Date.now() + SERVICE_SESSION_MS,
    });
    return { accessKeyId: match[1]!, secretAccessKey: randomBytes(20).toString('base64'), sessionToken };
  }

  issue(sessionToken: string, session: AssumedSession): Promise<void> {
    const key = keyOf(sessionToken);
    this.sessions.set(key, session);
    return this.storage.putDocument(NAMESPACE, key, session);
  }
}

/** The ARN a role session acts as: `arn:aws:sts::ACCOUNT:assumed-role/ROLE/SESSION`. */
export function sessionArn(session: Pick<AssumedSession, 'account' | 'roleArn' | 'sessionName'>): string {
  const roleName = session.roleArn.slice(session.roleArn.lastIndexOf('/') + 1);
  return `arn:aws:sts::${session.account}:assumed-role/${roleName}/${session.sessionName}`;
}
