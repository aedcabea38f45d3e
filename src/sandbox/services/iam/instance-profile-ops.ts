import { el } from '../../xml.js';
import type { IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import { newId, type InstanceProfileRecord } from './model.js';
import { checkName, checkPath } from './params.js';
import { instanceProfileXml } from './render.js';
import type { IamStore } from './store.js';

/** An instance profile holds at most one role (a fixed AWS quota). */
const ROLES_PER_PROFILE = 1;

const render = (store: IamStore, record: InstanceProfileRecord, name?: string) =>
  instanceProfileXml(
    record,
    record.roles.map((role) => store.principal('Role', role)),
    name,
  );

const createInstanceProfile: IamHandler = async ({ params, store, accountId, now }) => {
  const name = checkName(params.required('InstanceProfileName'), 'instanceProfileName', 128);
  if (store.findProfile(name)) throw iamErrors.alreadyExists(`Instance Profile ${name} already exists.`);
  const path = checkPath(params.optional('Path'));
  const record: InstanceProfileRecord = {
    name,
    path,
    id: newId('InstanceProfile'),
    arn: `arn:aws:iam::${accountId}:instance-profile${path}${name}`,
    createdAt: now,
    roles: [],
  };
  await store.saveProfile(record);
  return [render(store, record)];
};

const getInstanceProfile: IamHandler = ({ params, store }) => [
  render(store, store.profile(params.required('InstanceProfileName'))),
];

const deleteInstanceProfile: IamHandler = async ({ params, store }) => {
  const record = store.profile(params.required('InstanceProfileName'));
  if (record.roles.length > 0) {
    throw iamErrors.deleteConflict('Cannot delete entity, must remove roles from instance profile first.');
  }
  await store.deleteProfile(record);
  return [];
};

const addRole: IamHandler = async ({ params, store }) => {
  const record = store.profile(params.required('InstanceProfileName'));
  const role = store.principal('Role', params.required('RoleName'));
  // Adding the role it already holds counts against the quota too, as in AWS.
  if (record.roles.length >= ROLES_PER_PROFILE) {
    throw iamErrors.limitExceeded(
      `Cannot exceed quota for InstanceSessionsPerInstanceProfile: ${ROLES_PER_PROFILE}`,
    );
  }
  record.roles.push(role.name);
  await store.saveProfile(record);
  return [];
};

const removeRole: IamHandler = async ({ params, store }) => {
  const record = store.profile(params.required('InstanceProfileName'));
  const roleName = params.required('RoleName');
  if (!record.roles.some((role) => role.toLowerCase() === roleName.toLowerCase())) {
    throw iamErrors.noSuchEntity(`The role with name ${roleName} cannot be found.`);
  }
  record.roles = record.roles.filter((role) => role.toLowerCase() !== roleName.toLowerCase());
  await store.saveProfile(record);
  return [];
};

const listForRole: IamHandler = ({ params, store }) => {
  const role = store.principal('Role', params.required('RoleName'));
  const profiles = store.allProfiles().filter((profile) => profile.roles.includes(role.name));
  return [
    el(
      'InstanceProfiles',
      profiles.map((profile) => render(store, profile, 'member')),
    ),
    el('IsTruncated', false),
  ];
};

export const instanceProfileHandlers: Record<string, IamHandler> = {
  CreateInstanceProfile: createInstanceProfile,
  GetInstanceProfile: getInstanceProfile,
  DeleteInstanceProfile: deleteInstanceProfile,
  AddRoleToInstanceProfile: addRole,
  RemoveRoleFromInstanceProfile: removeRole,
  ListInstanceProfilesForRole: listForRole,
};
