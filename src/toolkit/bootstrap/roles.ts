import {
  AttachRolePolicyCommand,
  CreateRoleCommand,
  DetachRolePolicyCommand,
  GetRoleCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListRoleTagsCommand,
  PutRolePermissionsBoundaryCommand,
  TagRoleCommand,
  UntagRoleCommand,
  UpdateAssumeRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { awsErrorCode } from '../../aws/error-class.js';
import { trustPolicy, trustedAccountsOf, type RoleChange, type RoleShape } from './role-plan.js';

/** The role as IAM holds it, or undefined when there is none of that name. */
export async function readRole(iam: IAMClient, roleName: string): Promise<RoleShape | undefined> {
  let document: string | undefined;
  let boundary: string | undefined;
  try {
    const { Role } = await iam.send(new GetRoleCommand({ RoleName: roleName }));
    document = Role?.AssumeRolePolicyDocument;
    boundary = Role?.PermissionsBoundary?.PermissionsBoundaryArn;
  } catch (error) {
    const code = awsErrorCode(error);
    if (code === 'NoSuchEntity' || code === 'NoSuchEntityException') return undefined;
    throw error;
  }
  const policies: string[] = [];
  let marker: string | undefined;
  do {
    const page = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: roleName, Marker: marker }));
    for (const policy of page.AttachedPolicies ?? []) if (policy.PolicyArn) policies.push(policy.PolicyArn);
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  const { Tags } = await iam.send(new ListRoleTagsCommand({ RoleName: roleName }));
  return {
    trustedAccounts: trustedAccountsOf(document ? JSON.parse(decodeURIComponent(document)) : undefined),
    policies: policies.sort(),
    ...(boundary ? { permissionsBoundary: boundary } : {}),
    tags: Object.fromEntries((Tags ?? []).map((tag) => [tag.Key!, tag.Value ?? ''])),
  };
}

/** Makes the calls `changes` name, in order. */
export async function applyRoleChanges(
  iam: IAMClient,
  roleName: string,
  partition: string,
  changes: readonly RoleChange[],
): Promise<void> {
  for (const change of changes) {
    switch (change.kind) {
      case 'create': {
        const { shape } = change;
        await iam.send(
          new CreateRoleCommand({
            RoleName: roleName,
            AssumeRolePolicyDocument: JSON.stringify(trustPolicy(partition, shape.trustedAccounts)),
            Description: 'cdkd bootstrap role',
            ...(shape.permissionsBoundary ? { PermissionsBoundary: shape.permissionsBoundary } : {}),
            Tags: Object.entries(shape.tags).map(([Key, Value]) => ({ Key, Value })),
          }),
        );
        for (const policy of shape.policies)
          await iam.send(new AttachRolePolicyCommand({ RoleName: roleName, PolicyArn: policy }));
        break;
      }
      case 'trust':
        await iam.send(
          new UpdateAssumeRolePolicyCommand({
            RoleName: roleName,
            PolicyDocument: JSON.stringify(trustPolicy(partition, change.to)),
          }),
        );
        break;
      case 'attach':
        await iam.send(new AttachRolePolicyCommand({ RoleName: roleName, PolicyArn: change.policy }));
        break;
      case 'detach':
        await iam.send(new DetachRolePolicyCommand({ RoleName: roleName, PolicyArn: change.policy }));
        break;
      case 'boundary':
        await iam.send(
          new PutRolePermissionsBoundaryCommand({ RoleName: roleName, PermissionsBoundary: change.to }),
        );
        break;
      case 'tag':
        await iam.send(
          new TagRoleCommand({
            RoleName: roleName,
            Tags: Object.entries(change.tags).map(([Key, Value]) => ({ Key, Value })),
          }),
        );
        break;
      case 'untag':
        await iam.send(new UntagRoleCommand({ RoleName: roleName, TagKeys: change.keys }));
        break;
    }
  }
}
