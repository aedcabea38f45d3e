// Spec 002 "How the stateful list is kept complete", the third bound: a sweep over every
// bundled resource schema proposes the types that have an immutable property (so a plain
// deploy can replace them) and look like stores. Each proposal must be guarded
// (src/plan/stateful-types.ts, or the service spec's isStateful) or written off below with
// the reason; test/plan/stateful-list-bounds.test.ts fails otherwise.
// Usage: npx tsx scripts/audit-stateful-candidates.ts  (rewrites docs/_generated/stateful-candidates.md)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  knownTypes,
  schemaFor,
  statefulnessOf,
  statefulTableReason,
  statefulTableVerdict,
} from '../src/resource-types/index.js';

/** Resource names that look like something holding data. A heuristic: what it buys is a checkable widening. */
const STORE_LIKE =
  /(Bucket|Table|Repository|Stream|Database|Vault|Store|Collection|Ledger|Archive|FileSystem|Volume|Cluster|Domain|Index|Namespace|Workspace|Dataset|Snapshot|Backup|Catalog|Lake|Warehouse|Graph|Journal)$/;

export const CANDIDATES_DOC = fileURLToPath(
  new URL('../docs/_generated/stateful-candidates.md', import.meta.url),
);

/** Proposals the schema settles as not holding data, each with the reason. */
export const WRITE_OFFS: Readonly<Record<string, string>> = {
  'AWS::AppSync::ChannelNamespace': 'event channel configuration; events pass straight through',
  'AWS::APS::RuleGroupsNamespace': 'rules declared in the template',
  'AWS::Athena::DataCatalog': 'a pointer to a catalog held elsewhere',
  'AWS::CleanRooms::ConfiguredTable': 'a reference to a table held in Glue',
  'AWS::CleanRoomsML::TrainingDataset': 'references training data held in Glue tables',
  'AWS::CloudFront::TrustStore': 'its CA bundle is read from S3',
  'AWS::CloudWatch::MetricStream': 'streams metrics straight through to Firehose, keeps none',
  'AWS::Connect::Workspace': 'UI configuration declared in the template',
  'AWS::CustomerProfiles::EventStream': 'passes events straight through to Kinesis',
  'AWS::DataBrew::Dataset': 'a pointer to input held in S3 or Glue',
  'AWS::DAX::Cluster': 'a cache; the data lives in DynamoDB',
  'AWS::EC2::LocalGatewayRouteTable': 'routing configuration; its routes are separate resources',
  'AWS::EC2::RouteTable': 'routing configuration; its routes are separate resources',
  'AWS::EC2::TransitGatewayMulticastDomain': 'routing configuration; its members are separate resources',
  'AWS::EC2::TransitGatewayPolicyTable': 'routing configuration; its entries are separate resources',
  'AWS::ECS::Cluster': 'a grouping of services and tasks that are separate resources',
  'AWS::ElasticLoadBalancingV2::TrustStore': 'its CA bundle is read from S3',
  'AWS::EMRContainers::VirtualCluster': 'a mapping onto an EKS namespace',
  'AWS::EntityResolution::IdNamespace': 'configuration over input sources held elsewhere',
  'AWS::Glue::Table': 'a catalog entry; the rows live in S3',
  'AWS::IoT::Stream': 'points at files held in S3',
  'AWS::IoTFleetWise::SignalCatalog': 'signal definitions declared in the template',
  'AWS::KinesisFirehose::DeliveryStream': 'delivers records onward rather than retaining them',
  'AWS::Location::PlaceIndex': 'a handle onto a data provider',
  'AWS::MediaConnect::FlowMediaStream': 'passes media straight through',
  'AWS::MediaLive::Cluster': 'compute nodes; nothing stored',
  'AWS::MemoryDB::MultiRegionCluster': 'groups regional clusters that outlive it',
  'AWS::OpsWorks::Volume': 'registers an existing EBS volume, which is guarded',
  'AWS::PCS::Cluster': 'a job scheduler; job data lives on the file systems it mounts',
  'AWS::Pinpoint::EventStream': 'passes events straight through to Kinesis or Firehose',
  'AWS::QLDB::Stream': 'passes journal records straight through to Kinesis',
  'AWS::Route53::CidrCollection': 'CIDR locations declared in the template',
  'AWS::Route53RecoveryControl::Cluster': 'control endpoints; routing controls are separate resources',
  'AWS::SageMaker::CodeRepository': 'a pointer to a git repository held elsewhere',
  'AWS::SecurityAgent::TargetDomain': 'a DNS name under verification, not a store',
  'AWS::ServiceDiscovery::HttpNamespace': 'AWS refuses to delete a namespace that still holds services',
  'AWS::ServiceDiscovery::PrivateDnsNamespace': 'AWS refuses to delete a namespace that still holds services',
  'AWS::ServiceDiscovery::PublicDnsNamespace': 'AWS refuses to delete a namespace that still holds services',
};

export interface Candidate {
  type: string;
  /** The create-only properties that make a plain deploy replace it. */
  immutable: readonly string[];
}

/** Every schema type with an immutable property whose name looks like a store, sorted. */
export function proposeCandidates(): Candidate[] {
  return knownTypes().flatMap((type) => {
    const schema = schemaFor(type);
    const immutable = schema?.replacementProperties ?? [];
    const storeLike = schema?.specStateful === true || STORE_LIKE.test(type.split('::')[2] ?? '');
    return immutable.length > 0 && storeLike ? [{ type, immutable }] : [];
  });
}

/** How the list answers a proposal: guarded, or written off with a reason (here or in the table). */
export function disposition(
  type: string,
): { guarded: true } | { guarded: false; reason: string | undefined } {
  if (statefulnessOf(type) !== 'not-stateful') return { guarded: true };
  return { guarded: false, reason: WRITE_OFFS[type] ?? tableWriteOff(type) };
}

/** A 'not-stateful' row of the stateful table carries its reason too (SQS queues, EC2 instances, ...). */
function tableWriteOff(type: string): string | undefined {
  return statefulTableVerdict(type) === 'not-stateful' ? statefulTableReason(type) : undefined;
}

/** The candidates document as the repository keeps it: rendered, then formatted as `npm run lint` checks it. */
export async function candidatesDoc(candidates: readonly Candidate[]): Promise<string> {
  const options = (await resolveConfig(CANDIDATES_DOC)) ?? {};
  return format(renderCandidatesDoc(candidates), { ...options, parser: 'markdown' });
}

function renderCandidatesDoc(candidates: readonly Candidate[]): string {
  const rows = candidates.map(({ type, immutable }) => {
    const verdict = disposition(type);
    const answer = verdict.guarded ? 'guarded' : `written off: ${verdict.reason ?? '**UNDECIDED**'}`;
    return `| ${type} | ${immutable.join(', ')} | ${answer} |`;
  });
  return [
    '# Stateful-list candidates',
    '',
    'Generated by `npx tsx scripts/audit-stateful-candidates.ts` from the bundled resource schemas; do not edit.',
    'Each type has an immutable property (a change replaces it on a plain `cdkd deploy`) and looks like a store.',
    'Every one is guarded by the stateful list or written off with its reason (spec 002, "How the stateful list is kept complete").',
    '',
    '| type | immutable properties | answer |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const candidates = proposeCandidates();
  writeFileSync(CANDIDATES_DOC, await candidatesDoc(candidates));
  const undecided = candidates.filter(({ type }) => {
    const verdict = disposition(type);
    return !verdict.guarded && verdict.reason === undefined;
  });
  console.log(`${CANDIDATES_DOC}: ${candidates.length} candidates, ${undecided.length} undecided`);
  if (undecided.length > 0) {
    console.error(`Guard or write off: ${undecided.map((c) => c.type).join(', ')}`);
    process.exitCode = 1;
  }
}
