import { el, optionalEl } from '../../xml.js';
import {
  iso,
  type InstanceProfileRecord,
  type ManagedPolicyRecord,
  type PolicyVersionRecord,
  type PrincipalRecord,
  type Tag,
} from './model.js';

/** IAM returns policy documents URL-encoded. */
export const encodeDocument = (document: string) => encodeURIComponent(document);

export const memberList = (name: string, items: string[]) =>
  el(
    name,
    items.map((item) => el('member', item)),
  );

export function tagList(tags: Tag[]): string {
  return el(
    'Tags',
    tags.map((tag) => el('member', [el('Key', tag.Key), el('Value', tag.Value)])),
  );
}

/** `<Role>`, `<User>` or `<Group>` as IAM returns it. */
export function principalXml(record: PrincipalRecord, element: string = record.kind): string {
  const boundary =
    record.permissionsBoundary !== undefined
      ? el('PermissionsBoundary', [
          el('PermissionsBoundaryType', 'PermissionsBoundaryPolicy'),
          el('PermissionsBoundaryArn', record.permissionsBoundary),
        ])
      : undefined;
  return el(element, [
    el('Path', record.path),
    el(`${record.kind}Name`, record.name),
    el(`${record.kind}Id`, record.id),
    el('Arn', record.arn),
    el('CreateDate', iso(record.createdAt)),
    record.assumeRolePolicyDocument !== undefined &&
      el('AssumeRolePolicyDocument', encodeDocument(record.assumeRolePolicyDocument)),
    optionalEl('Description', record.description),
    optionalEl('MaxSessionDuration', record.maxSessionDuration),
    boundary,
    record.kind !== 'Group' && record.tags.length > 0 && tagList(record.tags),
  ]);
}

export function policyXml(record: ManagedPolicyRecord, attachmentCount: number): string {
  return el('Policy', [
    el('PolicyName', record.name),
    el('PolicyId', record.id),
    el('Arn', record.arn),
    el('Path', record.path),
    el('DefaultVersionId', record.defaultVersionId),
    el('AttachmentCount', attachmentCount),
    el('PermissionsBoundaryUsageCount', 0),
    el('IsAttachable', true),
    optionalEl('Description', record.description),
    el('CreateDate', iso(record.createdAt)),
    el('UpdateDate', iso(record.updatedAt)),
  ]);
}

export function versionXml(
  version: PolicyVersionRecord,
  defaultVersionId: string,
  withDocument: boolean,
  name = 'PolicyVersion',
): string {
  return el(name, [
    withDocument && el('Document', encodeDocument(version.document)),
    el('VersionId', version.versionId),
    el('IsDefaultVersion', version.versionId === defaultVersionId),
    el('CreateDate', iso(version.createdAt)),
  ]);
}

export function instanceProfileXml(
  record: InstanceProfileRecord,
  roles: PrincipalRecord[],
  name = 'InstanceProfile',
): string {
  return el(name, [
    el('Path', record.path),
    el('InstanceProfileName', record.name),
    el('InstanceProfileId', record.id),
    el('Arn', record.arn),
    el('CreateDate', iso(record.createdAt)),
    el(
      'Roles',
      roles.map((role) => principalXml(role, 'member')),
    ),
  ]);
}
