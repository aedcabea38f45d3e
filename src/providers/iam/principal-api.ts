import {
  AttachGroupPolicyCommand,
  AttachRolePolicyCommand,
  AttachUserPolicyCommand,
  DeleteGroupPolicyCommand,
  DeleteRolePolicyCommand,
  DeleteUserPolicyCommand,
  DetachGroupPolicyCommand,
  DetachRolePolicyCommand,
  DetachUserPolicyCommand,
  GetGroupPolicyCommand,
  GetRolePolicyCommand,
  GetUserPolicyCommand,
  ListAttachedGroupPoliciesCommand,
  ListAttachedRolePoliciesCommand,
  ListAttachedUserPoliciesCommand,
  ListGroupPoliciesCommand,
  ListRolePoliciesCommand,
  ListUserPoliciesCommand,
  PutGroupPolicyCommand,
  PutRolePolicyCommand,
  PutUserPolicyCommand,
  type IAMClient,
} from '@aws-sdk/client-iam';
import type { PrincipalKind } from '../../resource-types/index.js';

interface Page {
  IsTruncated?: boolean;
  Marker?: string;
}

/** Every page of an IAM list call. */
export async function collect<P extends Page, T>(
  fetch: (marker: string | undefined) => Promise<P>,
  items: (page: P) => T[] | undefined,
): Promise<T[]> {
  const out: T[] = [];
  let marker: string | undefined;
  do {
    const page = await fetch(marker);
    out.push(...(items(page) ?? []));
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker !== undefined);
  return out;
}

/** The inline and managed policy calls of one principal kind, so roles, users and groups share code. */
export interface PrincipalApi {
  putPolicy(name: string, policyName: string, document: string): Promise<unknown>;
  deletePolicy(name: string, policyName: string): Promise<unknown>;
  /** The URL-encoded document. */
  getPolicy(name: string, policyName: string): Promise<string | undefined>;
  listPolicies(name: string): Promise<string[]>;
  attach(name: string, arn: string): Promise<unknown>;
  detach(name: string, arn: string): Promise<unknown>;
  listAttached(name: string): Promise<string[]>;
}

export function principalApi(client: IAMClient, kind: PrincipalKind, signal?: AbortSignal): PrincipalApi {
  const o = { abortSignal: signal };
  const arns = (page: Page & { AttachedPolicies?: Array<{ PolicyArn?: string }> }) =>
    (page.AttachedPolicies ?? []).map((policy) => policy.PolicyArn!);
  switch (kind) {
    case 'Role':
      return {
        putPolicy: (RoleName, PolicyName, PolicyDocument) =>
          client.send(new PutRolePolicyCommand({ RoleName, PolicyName, PolicyDocument }), o),
        deletePolicy: (RoleName, PolicyName) =>
          client.send(new DeleteRolePolicyCommand({ RoleName, PolicyName }), o),
        getPolicy: async (RoleName, PolicyName) =>
          (await client.send(new GetRolePolicyCommand({ RoleName, PolicyName }), o)).PolicyDocument,
        listPolicies: (RoleName) =>
          collect(
            (Marker) => client.send(new ListRolePoliciesCommand({ RoleName, Marker }), o),
            (p) => p.PolicyNames,
          ),
        attach: (RoleName, PolicyArn) => client.send(new AttachRolePolicyCommand({ RoleName, PolicyArn }), o),
        detach: (RoleName, PolicyArn) => client.send(new DetachRolePolicyCommand({ RoleName, PolicyArn }), o),
        listAttached: (RoleName) =>
          collect(
            (Marker) => client.send(new ListAttachedRolePoliciesCommand({ RoleName, Marker }), o),
            arns,
          ),
      };
    case 'User':
      return {
        putPolicy: (UserName, PolicyName, PolicyDocument) =>
          client.send(new PutUserPolicyCommand({ UserName, PolicyName, PolicyDocument }), o),
        deletePolicy: (UserName, PolicyName) =>
          client.send(new DeleteUserPolicyCommand({ UserName, PolicyName }), o),
        getPolicy: async (UserName, PolicyName) =>
          (await client.send(new GetUserPolicyCommand({ UserName, PolicyName }), o)).PolicyDocument,
        listPolicies: (UserName) =>
          collect(
            (Marker) => client.send(new ListUserPoliciesCommand({ UserName, Marker }), o),
            (p) => p.PolicyNames,
          ),
        attach: (UserName, PolicyArn) => client.send(new AttachUserPolicyCommand({ UserName, PolicyArn }), o),
        detach: (UserName, PolicyArn) => client.send(new DetachUserPolicyCommand({ UserName, PolicyArn }), o),
        listAttached: (UserName) =>
          collect(
            (Marker) => client.send(new ListAttachedUserPoliciesCommand({ UserName, Marker }), o),
            arns,
          ),
      };
    case 'Group':
      return {
        putPolicy: (GroupName, PolicyName, PolicyDocument) =>
          client.send(new PutGroupPolicyCommand({ GroupName, PolicyName, PolicyDocument }), o),
        deletePolicy: (GroupName, PolicyName) =>
          client.send(new DeleteGroupPolicyCommand({ GroupName, PolicyName }), o),
        getPolicy: async (GroupName, PolicyName) =>
          (await client.send(new GetGroupPolicyCommand({ GroupName, PolicyName }), o)).PolicyDocument,
        listPolicies: (GroupName) =>
          collect(
            (Marker) => client.send(new ListGroupPoliciesCommand({ GroupName, Marker }), o),
            (p) => p.PolicyNames,
          ),
        attach: (GroupName, PolicyArn) =>
          client.send(new AttachGroupPolicyCommand({ GroupName, PolicyArn }), o),
        detach: (GroupName, PolicyArn) =>
          client.send(new DetachGroupPolicyCommand({ GroupName, PolicyArn }), o),
        listAttached: (GroupName) =>
          collect(
            (Marker) => client.send(new ListAttachedGroupPoliciesCommand({ GroupName, Marker }), o),
            arns,
          ),
      };
  }
}
