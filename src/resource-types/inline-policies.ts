/**
 * The IAM types between which an inline policy's name can move (spec 000, "IAM inline policy
 * names moved between resources"): a principal's own `Policies`, or an AWS::IAM::Policy naming
 * the principal in one of its target properties.
 */

/** The resource that puts one inline policy on the roles, users and groups it names. */
export const INLINE_POLICY_TYPE = 'AWS::IAM::Policy';

export type PrincipalKind = 'Role' | 'User' | 'Group';

/** The principal types, and the AWS::IAM::Policy property through which a policy names each. */
export const INLINE_POLICY_TARGETS: ReadonlyArray<{
  kind: PrincipalKind;
  type: string;
  property: 'Roles' | 'Users' | 'Groups';
}> = [
  { kind: 'Role', type: 'AWS::IAM::Role', property: 'Roles' },
  { kind: 'User', type: 'AWS::IAM::User', property: 'Users' },
  { kind: 'Group', type: 'AWS::IAM::Group', property: 'Groups' },
];

/** The principal kind of a type that holds inline policies in its own `Policies`. */
export function principalKindOf(type: string): PrincipalKind | undefined {
  return INLINE_POLICY_TARGETS.find((target) => target.type === type)?.kind;
}

/** The resource type of a principal kind. */
export function principalTypeOf(kind: PrincipalKind): string {
  return INLINE_POLICY_TARGETS.find((target) => target.kind === kind)!.type;
}
