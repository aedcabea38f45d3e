import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { DocumentMap } from '../../storage/document-map.js';
import type { ApiHandler } from '../api-module.js';

interface UserRecord {
  poolId: string;
  username: string;
  attributes: Array<{ Name: string; Value: string }>;
  status: 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED';
  created: number;
  modified: number;
}

/** A pool's users, made and given passwords by an administrator. */
export function cognitoUsers(
  users: DocumentMap<UserRecord>,
  poolExists: (poolId: string, region: string, accountId: string) => boolean,
): { handlers: Record<string, ApiHandler> } {
  const pool = (input: Record<string, unknown>, region: string, accountId: string) => {
    const poolId = requiredString(input, 'UserPoolId', 'InvalidParameterException');
    if (!poolExists(poolId, region, accountId)) {
      throw new SandboxError('ResourceNotFoundException', `User pool ${poolId} does not exist.`, 400);
    }
    return poolId;
  };
  const view = (user: UserRecord) => ({
    Username: user.username,
    Attributes: user.attributes,
    UserCreateDate: user.created / 1000,
    UserLastModifiedDate: user.modified / 1000,
    Enabled: true,
    UserStatus: user.status,
  });
  return {
    handlers: {
      AdminCreateUser: async ({ input, region, accountId }) => {
        const poolId = pool(input, region, accountId);
        const username = requiredString(input, 'Username', 'InvalidParameterException');
        if (users.get(`${poolId}/${username}`)) {
          throw new SandboxError('UsernameExistsException', 'User account already exists', 400);
        }
        const now = Date.now();
        const user: UserRecord = {
          poolId,
          username,
          attributes: (input.UserAttributes as UserRecord['attributes'] | undefined) ?? [],
          status: 'FORCE_CHANGE_PASSWORD',
          created: now,
          modified: now,
        };
        await users.put(`${poolId}/${username}`, user);
        return { User: view(user) };
      },
      AdminSetUserPassword: async ({ input, region, accountId }) => {
        const poolId = pool(input, region, accountId);
        const username = requiredString(input, 'Username', 'InvalidParameterException');
        const user = users.get(`${poolId}/${username}`);
        if (!user) throw new SandboxError('UserNotFoundException', 'User does not exist.', 400);
        if (requiredString(input, 'Password', 'InvalidParameterException').length < 6) {
          throw new SandboxError(
            'InvalidPasswordException',
            'Password did not conform with password policy',
            400,
          );
        }
        await users.put(`${poolId}/${username}`, {
          ...user,
          status: input.Permanent === true ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD',
          modified: Date.now(),
        });
        return {};
      },
    },
  };
}
