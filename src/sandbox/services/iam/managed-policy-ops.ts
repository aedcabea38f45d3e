import { el } from '../../xml.js';
import type { IamHandler } from './call.js';
import { iamErrors } from './iam-errors.js';
import { newId, type ManagedPolicyRecord } from './model.js';
import { checkName, checkPath, checkPolicyDocument } from './params.js';
import { policyXml, versionXml } from './render.js';
import type { IamStore } from './store.js';

const VERSION_LIMIT = 5;
const SIZE_LIMIT = 6144;

function checkSize(document: string): string {
  if (document.replace(/\s/g, '').length > SIZE_LIMIT) {
    throw iamErrors.limitExceeded(`Cannot exceed quota for PolicySize: ${SIZE_LIMIT}`);
  }
  return document;
}

const attachmentCount = (store: IamStore, record: ManagedPolicyRecord) =>
  store.attachmentsOf(record.arn).length;

const createPolicy: IamHandler = async ({ params, store, accountId, now }) => {
  const name = checkName(params.required('PolicyName'), 'policyName', 128);
  const path = checkPath(params.optional('Path'));
  const arn = `arn:aws:iam::${accountId}:policy${path}${name}`;
  if (store.findPolicy(arn))
    throw iamErrors.alreadyExists(`A policy called ${name} already exists. Duplicate names are not allowed.`);
  const document = checkSize(checkPolicyDocument(params.required('PolicyDocument')));
  const description = params.optional('Description');
  const record: ManagedPolicyRecord = {
    name,
    path,
    id: newId('Policy'),
    arn,
    ...(description !== undefined ? { description } : {}),
    createdAt: now,
    updatedAt: now,
    defaultVersionId: 'v1',
    nextVersion: 2,
    versions: [{ versionId: 'v1', document, createdAt: now }],
  };
  await store.savePolicy(record);
  return [policyXml(record, 0)];
};

const getPolicy: IamHandler = ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  return [policyXml(record, attachmentCount(store, record))];
};

const deletePolicy: IamHandler = async ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  if (attachmentCount(store, record) > 0) {
    throw iamErrors.deleteConflict('Cannot delete a policy attached to entities.');
  }
  if (record.versions.length > 1) {
    throw iamErrors.deleteConflict(
      "This policy has more than one version. Before you delete a policy, you must delete the policy's versions. The default version is deleted with the policy.",
    );
  }
  await store.deletePolicy(record);
  return [];
};

const createPolicyVersion: IamHandler = async ({ params, store, now }) => {
  const record = store.policy(params.required('PolicyArn'));
  const document = checkSize(checkPolicyDocument(params.required('PolicyDocument')));
  if (record.versions.length >= VERSION_LIMIT) {
    throw iamErrors.limitExceeded(
      `A managed policy can have up to ${VERSION_LIMIT} versions. Before you create a new version, you must delete an existing version.`,
    );
  }
  const version = { versionId: `v${record.nextVersion}`, document, createdAt: now };
  record.nextVersion += 1;
  record.versions.push(version);
  if (params.optional('SetAsDefault') === 'true') record.defaultVersionId = version.versionId;
  record.updatedAt = now;
  await store.savePolicy(record);
  return [versionXml(version, record.defaultVersionId, false)];
};

function findVersion(record: ManagedPolicyRecord, versionId: string) {
  const version = record.versions.find((v) => v.versionId === versionId);
  if (!version)
    throw iamErrors.noSuchEntity(
      `Policy ${record.arn} version ${versionId} does not exist or is not attachable.`,
    );
  return version;
}

const getPolicyVersion: IamHandler = ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  const version = findVersion(record, params.required('VersionId'));
  return [versionXml(version, record.defaultVersionId, true)];
};

const deletePolicyVersion: IamHandler = async ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  const version = findVersion(record, params.required('VersionId'));
  if (version.versionId === record.defaultVersionId) {
    throw iamErrors.deleteConflict('Cannot delete the default version of a policy.');
  }
  record.versions = record.versions.filter((v) => v !== version);
  await store.savePolicy(record);
  return [];
};

const setDefaultPolicyVersion: IamHandler = async ({ params, store, now }) => {
  const record = store.policy(params.required('PolicyArn'));
  record.defaultVersionId = findVersion(record, params.required('VersionId')).versionId;
  record.updatedAt = now;
  await store.savePolicy(record);
  return [];
};

const listPolicyVersions: IamHandler = ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  const versions = [...record.versions].reverse();
  return [
    el(
      'Versions',
      versions.map((v) => versionXml(v, record.defaultVersionId, false, 'member')),
    ),
    el('IsTruncated', false),
  ];
};

const listEntitiesForPolicy: IamHandler = ({ params, store }) => {
  const record = store.policy(params.required('PolicyArn'));
  const attached = store.attachmentsOf(record.arn);
  const list = (kind: 'Role' | 'User' | 'Group') =>
    el(
      `Policy${kind}s`,
      attached
        .filter((p) => p.kind === kind)
        .map((p) => el('member', [el(`${kind}Name`, p.name), el(`${kind}Id`, p.id)])),
    );
  return [list('Group'), list('User'), list('Role'), el('IsTruncated', false)];
};

export const managedPolicyHandlers: Record<string, IamHandler> = {
  CreatePolicy: createPolicy,
  GetPolicy: getPolicy,
  DeletePolicy: deletePolicy,
  CreatePolicyVersion: createPolicyVersion,
  GetPolicyVersion: getPolicyVersion,
  DeletePolicyVersion: deletePolicyVersion,
  SetDefaultPolicyVersion: setDefaultPolicyVersion,
  ListPolicyVersions: listPolicyVersions,
  ListEntitiesForPolicy: listEntitiesForPolicy,
};
