/**
 * How a later successful deploy tells the resource a failed CREATE made from the one a
 * fix-forward put under the same logical id (spec 000, "A later successful cdkd deploy"):
 * - `distinct-ids`: ids that can never name one resource (a global, unchangeable bucket or
 *   stream name; an EC2 id AWS never reuses), so two ids are two resources once the record's
 *   resource reads back;
 * - a key: an id AWS generates and never gives a later resource, read from both resources
 *   (RDS, DocumentDB and Neptune can rename an identifier, so the identifier proves nothing);
 * - with an engine: RDS, DocumentDB and Neptune share one namespace of identifiers, and
 *   DocumentDB's and Neptune's describe calls also answer for the others' clusters, so a read
 *   counts only when it shows this engine; one that shows another, or none, proves nothing.
 */
export type LiveIdentityRule = 'distinct-ids' | { key: string; engine?: string };

const COMPARED_BY: Readonly<Record<string, LiveIdentityRule>> = {
  'AWS::S3::Bucket': 'distinct-ids',
  'AWS::Kinesis::Stream': 'distinct-ids',
  'AWS::EC2::NatGateway': 'distinct-ids',
  'AWS::EC2::EIP': 'distinct-ids',
  'AWS::DynamoDB::Table': { key: 'TableId' },
  'AWS::RDS::DBCluster': { key: 'DBClusterResourceId' },
  'AWS::RDS::DBInstance': { key: 'DbiResourceId' },
  'AWS::DocDB::DBCluster': { key: 'ClusterResourceId', engine: 'docdb' },
  'AWS::DocDB::DBInstance': { key: 'DbiResourceId', engine: 'docdb' },
  'AWS::Neptune::DBCluster': { key: 'ClusterResourceId', engine: 'neptune' },
  'AWS::Neptune::DBInstance': { key: 'DbiResourceId', engine: 'neptune' },
};

/** Spec 000: "An RDS or Neptune cluster or instance, or a DynamoDB table, that Cloud Control provisioned is never compared". */
const NOT_COMPARED_ON_CLOUD_CONTROL: ReadonlySet<string> = new Set([
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::Neptune::DBCluster',
  'AWS::Neptune::DBInstance',
  'AWS::DynamoDB::Table',
]);

export function liveIdentityRuleOf(type: string): LiveIdentityRule | undefined {
  return Object.hasOwn(COMPARED_BY, type) ? COMPARED_BY[type] : undefined;
}

export function liveIdentityComparedOnCloudControl(type: string): boolean {
  return !NOT_COMPARED_ON_CLOUD_CONTROL.has(type);
}
