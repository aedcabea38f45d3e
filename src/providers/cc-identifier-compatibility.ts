/**
 * Types whose SDK provider stores, as the physical id, the very identifier Cloud Control
 * addresses the resource by (its schema's primaryIdentifier): spec 002's admission bar for
 * moving a `provisionedBy: sdk` record onto Cloud Control in place (STICKY_CC_MIGRATION_EXEMPT
 * there). That the two agree is an empirical per-type fact, not a guarantee, so a type is
 * listed only once test/providers/cc-identifier-compatibility.test.ts has made one with its
 * SDK provider and then read and updated it through Cloud Control by that id. The same
 * agreement is what lets an `sdk-coverage` type return from Cloud Control to its SDK provider.
 */
const MEASURED: ReadonlySet<string> = new Set([
  'AWS::CloudWatch::Alarm',
  'AWS::EC2::Subnet',
  'AWS::IAM::Role',
  'AWS::Lambda::Function',
  'AWS::S3::Bucket',
  'AWS::SSM::Parameter',
]);

export function sdkIdIsCcIdentifier(type: string): boolean {
  return MEASURED.has(type);
}

/** The listed types, for the test that measures each one. */
export function ccIdentifierCompatibleTypes(): readonly string[] {
  return [...MEASURED];
}
