import type { LiveResource, ProviderKind } from '../providers/index.js';

/** What a fix-forward's live read of the record under the logical id said about the earlier resource. */
export type LiveComparison =
  /** The record's resource is the earlier one after all. */
  | 'same'
  /** Proven a different resource. */
  | 'different'
  /** The earlier resource is already gone. */
  | 'earlier-gone'
  /** A read failed, the record's resource was not found, or nothing tells them apart. */
  | 'unproven';

/** What a provider's read returned: the resource, `gone` when AWS reports it absent, `unreadable` when the read failed. */
export type LiveRead = LiveResource | 'gone' | 'unreadable';

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
const COMPARED_BY: Readonly<Record<string, 'distinct-ids' | { key: string; engine?: string }>> = {
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

/** Whether a later successful deploy reads `type` live; every other type lands in the warning. */
export function comparesLiveIdentity(type: string, provisionedBy?: ProviderKind): boolean {
  if (provisionedBy === 'cc-api' && NOT_COMPARED_ON_CLOUD_CONTROL.has(type)) return false;
  return type in COMPARED_BY;
}

/**
 * The verdict of the two live reads. The record's resource must read back first: a read
 * that fails, or a record whose resource is not found, proves nothing either way.
 */
export function compareLive(type: string, earlier: LiveRead, record: LiveRead): LiveComparison {
  const rule = COMPARED_BY[type];
  if (!rule || record === 'gone' || record === 'unreadable' || earlier === 'unreadable') return 'unproven';
  if (earlier === 'gone') return 'earlier-gone';
  if (rule === 'distinct-ids') return 'different';
  if (rule.engine && (keyOf(earlier, 'Engine') !== rule.engine || keyOf(record, 'Engine') !== rule.engine)) {
    return 'unproven';
  }
  const a = keyOf(earlier, rule.key);
  const b = keyOf(record, rule.key);
  if (a === undefined || b === undefined) return 'unproven';
  return a === b ? 'same' : 'different';
}

function keyOf(resource: LiveResource, key: string): string | undefined {
  const value = resource.creationIdentity?.[key] ?? resource.attributes[key] ?? resource.properties[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
