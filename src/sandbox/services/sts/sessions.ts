import { createHash } from 'node:crypto';
import type { AssumedSession, RoleSessions } from '../../ports/index.js';
import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'sts/sessions';

/** Sessions are found by their token, which storage keeps only as a digest. */
const keyOf = (sessionToken: string) => createHash('sha256').update(sessionToken).digest('hex');

/**
 * The role sessions AssumeRole issued, by session token (the access key id selects only the
 * account), kept in storage so credentials stay the role's across a restart.
 */
export class SessionStore implements RoleSessions {
  private readonly sessions = new Map<string, AssumedSession>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<SessionStore> {
    const store = new SessionStore(storage);
    for (const { id, doc } of await storage.listDocuments<AssumedSession>(NAMESPACE))
      store.sessions.set(id, doc);
    return store;
  }

  find(sessionToken: string): AssumedSession | undefined {
    return this.sessions.get(keyOf(sessionToken));
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
