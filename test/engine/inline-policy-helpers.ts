import { GetRolePolicyCommand, IAMClient, ListRolePoliciesCommand } from '@aws-sdk/client-iam';
import type { AwsClients } from '../../src/aws/client-factory.js';

/** A policy document allowing `action` on everything. */
export const allowing = (action: string) => ({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: action, Resource: '*' }],
});

/** An `AWS::IAM::Policy` named `name` on the template's `Role`, allowing `action`. */
export const rolePolicy = (name: string, action: string, extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::IAM::Policy',
  ...extra,
  Properties: { PolicyName: name, PolicyDocument: allowing(action), Roles: [{ Ref: 'Role' }] },
});

/** The inline policies the role holds in IAM, by name, with their documents. */
export async function inlinePoliciesOf(
  clients: AwsClients,
  roleName: string,
): Promise<Record<string, unknown>> {
  const iam = await clients.client(IAMClient);
  const names = (await iam.send(new ListRolePoliciesCommand({ RoleName: roleName }))).PolicyNames ?? [];
  const found: Record<string, unknown> = {};
  for (const PolicyName of names) {
    const got = await iam.send(new GetRolePolicyCommand({ RoleName: roleName, PolicyName }));
    found[PolicyName] = JSON.parse(decodeURIComponent(got.PolicyDocument!));
  }
  return found;
}
