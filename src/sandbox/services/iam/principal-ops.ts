import { el } from '../../xml.js';
import type { IamCall, IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import { isAwsManaged, newId, principalArn, type PrincipalKind, type PrincipalRecord } from './model.js';
import { checkName, checkPath, checkPolicyDocument } from './params.js';
import { principalXml } from './render.js';

export const NAME_LIMIT: Record<PrincipalKind, number> = { Role: 64, User: 64, Group: 128 };

/** The boundary must be a policy that exists (customer or AWS managed). */
export function checkBoundary(call: IamCall, arn: string | undefined): string | undefined {
  if (arn !== undefined && !isAwsManaged(arn) && !call.store.findPolicy(arn)) {
    throw iamErrors.noSuchEntity(`Scope ARN: ${arn} does not exist or is not attachable.`);
  }
  return arn;
}

function maxSessionDuration(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 3600 || seconds > 43200) {
    throw iamErrors.validation(
      `The requested MaxSessionDuration exceeds the allowed range. The value must be between 3600 and 43200 seconds.`,
    );
  }
  return seconds;
}

function create(kind: PrincipalKind): IamHandler {
  return async (call) => {
    const { params, store } = call;
    const name = checkName(params.required(`${kind}Name`), `${kind.toLowerCase()}Name`, NAME_LIMIT[kind]);
    if (store.findPrincipal(kind, name)) {
      throw iamErrors.alreadyExists(`${kind} with name ${name} already exists.`);
    }
    const path = checkPath(params.optional('Path'));
    const record: PrincipalRecord = {
      kind,
      name,
      path,
      id: newId(kind),
      arn: principalArn(call.accountId, kind, path, name),
      createdAt: call.now,
      inlinePolicies: {},
      attached: [],
      tags: kind === 'Group' ? [] : params.tags(),
      ...(kind === 'Group' ? { users: [] } : {}),
    };
    const boundary = checkBoundary(call, params.optional('PermissionsBoundary'));
    if (boundary !== undefined && kind !== 'Group') record.permissionsBoundary = boundary;
    if (kind === 'Role') {
      record.assumeRolePolicyDocument = checkPolicyDocument(params.required('AssumeRolePolicyDocument'), {
        trust: true,
      });
      record.maxSessionDuration = maxSessionDuration(params.optional('MaxSessionDuration')) ?? 3600;
      const description = params.optional('Description');
      if (description !== undefined) record.description = description;
    }
    await store.savePrincipal(record);
    return [principalXml(record)];
  };
}

function get(kind: PrincipalKind): IamHandler {
  return ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    if (kind !== 'Group') return [principalXml(record)];
    const users = (record.users ?? []).map((user) => store.principal('User', user));
    return [
      principalXml(record),
      el(
        'Users',
        users.map((user) => principalXml(user, 'member')),
      ),
      el('IsTruncated', false),
    ];
  };
}

function remove(kind: PrincipalKind): IamHandler {
  return async ({ params, store }) => {
    const record = store.principal(kind, params.required(`${kind}Name`));
    if (Object.keys(record.inlinePolicies).length > 0) {
      throw iamErrors.deleteConflict('Cannot delete entity, must delete policies first.');
    }
    if (record.attached.length > 0) {
      throw iamErrors.deleteConflict('Cannot delete entity, must detach all policies first.');
    }
    if (kind === 'Role' && store.allProfiles().some((profile) => profile.roles.includes(record.name))) {
      throw iamErrors.deleteConflict('Cannot delete entity, must remove roles from instance profile first.');
    }
    if (kind === 'User' && store.principalsOf('Group').some((group) => group.users?.includes(record.name))) {
      throw iamErrors.deleteConflict('Cannot delete entity, must remove user from all groups first.');
    }
    if (kind === 'Group' && (record.users ?? []).length > 0) {
      throw iamErrors.deleteConflict('Cannot delete entity, must remove users from group first.');
    }
    await store.deletePrincipal(record);
    return [];
  };
}

const updateRole: IamHandler = async ({ params, store }) => {
  const record = store.principal('Role', params.required('RoleName'));
  const description = params.optional('Description');
  if (description !== undefined) record.description = description === '' ? undefined : description;
  const duration = maxSessionDuration(params.optional('MaxSessionDuration'));
  if (duration !== undefined) record.maxSessionDuration = duration;
  await store.savePrincipal(record);
  return [];
};

const updateAssumeRolePolicy: IamHandler = async ({ params, store }) => {
  const record = store.principal('Role', params.required('RoleName'));
  record.assumeRolePolicyDocument = checkPolicyDocument(params.required('PolicyDocument'), { trust: true });
  await store.savePrincipal(record);
  return [];
};

/** UpdateUser / UpdateGroup: a new path (renames are not emulated). */
function updatePath(kind: 'User' | 'Group'): IamHandler {
  return async (call) => {
    const record = call.store.principal(kind, call.params.required(`${kind}Name`));
    if (call.params.optional(`New${kind}Name`) !== undefined) {
      throw iamErrors.invalidInput(`The sandbox does not emulate renaming a ${kind.toLowerCase()}.`);
    }
    const path = call.params.optional('NewPath');
    if (path !== undefined) {
      record.path = checkPath(path);
      record.arn = principalArn(call.accountId, kind, record.path, record.name);
    }
    await call.store.savePrincipal(record);
    return [];
  };
}

const addUserToGroup: IamHandler = async ({ params, store }) => {
  const group = store.principal('Group', params.required('GroupName'));
  const user = store.principal('User', params.required('UserName'));
  if (!group.users!.includes(user.name)) group.users!.push(user.name);
  await store.savePrincipal(group);
  return [];
};

const removeUserFromGroup: IamHandler = async ({ params, store }) => {
  const group = store.principal('Group', params.required('GroupName'));
  const user = store.principal('User', params.required('UserName'));
  if (!group.users!.includes(user.name)) {
    throw iamErrors.noSuchEntity(`The user with name ${user.name} cannot be found in group ${group.name}.`);
  }
  group.users = group.users!.filter((name) => name !== user.name);
  await store.savePrincipal(group);
  return [];
};

const listGroupsForUser: IamHandler = ({ params, store }) => {
  const user = store.principal('User', params.required('UserName'));
  const groups = store.principalsOf('Group').filter((group) => group.users?.includes(user.name));
  return [
    el(
      'Groups',
      groups.map((group) => principalXml(group, 'member')),
    ),
    el('IsTruncated', false),
  ];
};

export const principalHandlers: Record<string, IamHandler> = {
  ...Object.fromEntries(
    (['Role', 'User', 'Group'] as const).flatMap((kind) => [
      [`Create${kind}`, create(kind)],
      [`Get${kind}`, get(kind)],
      [`Delete${kind}`, remove(kind)],
    ]),
  ),
  UpdateRole: updateRole,
  UpdateAssumeRolePolicy: updateAssumeRolePolicy,
  UpdateUser: updatePath('User'),
  UpdateGroup: updatePath('Group'),
  AddUserToGroup: addUserToGroup,
  RemoveUserFromGroup: removeUserFromGroup,
  ListGroupsForUser: listGroupsForUser,
};
