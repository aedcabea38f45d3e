/**
 * Spec 002 "How the stateful list is kept complete" and "Why each category is on the list":
 * the types whose replacement needs --force-stateful-recreation, the two conditionally
 * stateful ones, and the types the spec deliberately leaves unguarded. Types the spec
 * does not name fall back to the service spec's `isStateful` flag (resource-schemas.ts).
 */
export type Statefulness = 'stateful' | 'conditional' | 'not-stateful';

type Row = readonly [type: string, verdict: Statefulness, why: string];

export const STATEFUL_TYPE_TABLE: readonly Row[] = [
  // Types CloudFormation allows DeletionPolicy: Snapshot on: deleting them destroys data.
  ['AWS::EC2::Volume', 'stateful', 'snapshot on destroy'],
  ['AWS::RDS::DBCluster', 'stateful', 'snapshot on destroy'],
  ['AWS::RDS::DBInstance', 'stateful', 'snapshot on destroy'],
  ['AWS::DocDB::DBCluster', 'stateful', 'snapshot on destroy'],
  ['AWS::Neptune::DBCluster', 'stateful', 'snapshot on destroy'],
  ['AWS::Redshift::Cluster', 'stateful', 'snapshot on destroy'],
  ['AWS::ElastiCache::CacheCluster', 'stateful', 'snapshot on destroy'],
  ['AWS::ElastiCache::ReplicationGroup', 'stateful', 'snapshot on destroy'],
  ['AWS::S3Express::DirectoryBucket', 'stateful', 'its delete consumes --force-stateful-recreation'],
  // Hand-curated: deletes that destroy data with no opt-in.
  ['AWS::S3Tables::TableBucket', 'stateful', 'deleting empties it first'],
  ['AWS::S3Vectors::VectorBucket', 'stateful', 'deleting empties it first'],
  ['AWS::S3Tables::Table', 'stateful', 'holds the rows'],
  ['AWS::KMS::Key', 'stateful', 'key material scheduled for deletion'],
  ['AWS::KMS::ReplicaKey', 'stateful', 'key material scheduled for deletion'],
  ['AWS::CloudHSM::Cluster', 'stateful', 'destroys the key material inside'],
  ['AWS::CodeCommit::Repository', 'stateful', 'drops the git history'],
  ['AWS::CodeArtifact::Repository', 'stateful', 'holds the packages'],
  ['AWS::CodeArtifact::Domain', 'stateful', 'owns the deduplicated asset storage'],
  ['AWS::RedshiftServerless::Namespace', 'stateful', 'owns the databases'],
  ['AWS::EMR::Cluster', 'stateful', 'HDFS volumes on core nodes'],
  ['AWS::EKS::Cluster', 'stateful', 'etcd holds every Kubernetes object'],
  ['AWS::SageMaker::Cluster', 'stateful', 'local and tiered storage holding checkpoints'],
  ['AWS::Kinesis::Stream', 'stateful', 'retains records'],
  ['AWS::MSK::Cluster', 'stateful', 'retains records'],
  ['AWS::MSK::ServerlessCluster', 'stateful', 'retains records'],
  ['AWS::OpenSearchService::Domain', 'stateful', 'indexed documents'],
  ['AWS::Elasticsearch::Domain', 'stateful', 'indexed documents'],
  ['AWS::OpenSearchServerless::Collection', 'stateful', 'indexed documents'],
  ['AWS::Rekognition::Collection', 'stateful', 'face vectors'],
  ['AWS::Location::GeofenceCollection', 'stateful', 'geofences'],
  ['AWS::Cognito::UserPool', 'stateful', 'identity store'],
  ['AWS::AppConfig::ConfigurationProfile', 'stateful', 'hosted configuration versions'],
  ['AWS::CloudFront::KeyValueStore', 'stateful', 'written through the service API'],
  ['AWS::Connect::DataTable', 'stateful', 'written through the service API'],
  ['AWS::Backup::BackupVault', 'stateful', 'holds the recovery points'],
  ['AWS::Cases::Domain', 'stateful', 'holds cases'],
  ['AWS::CustomerProfiles::Domain', 'stateful', 'holds profiles'],
  ['AWS::DataZone::Domain', 'stateful', 'holds a catalog'],
  ['AWS::SageMaker::Domain', 'stateful', "every user's home directory"],
  ['AWS::IoTSiteWise::Workspace', 'stateful', 'retained records (open question, fail-safe)'],
  ['AWS::AIOps::InvestigationGroup', 'stateful', 'retains content'],
  ['AWS::SES::MailManagerArchive', 'stateful', 'retains content'],
  ['AWS::Rbin::Rule', 'stateful', 'retained snapshots (open question, fail-safe)'],
  ['AWS::CloudFormation::Stack', 'stateful', 'destroys the whole child stack'],
  ['AWS::CloudFront::Distribution', 'stateful', 'the URL changes'],
  ['AWS::SMSVOICE::PhoneNumber', 'stateful', 'the identifier returns to the pool'],
  ['AWS::SMSVOICE::SenderId', 'stateful', 'the identifier returns to the pool'],
  // Emptiness decides: a probe at pre-flight, a retention rule for log groups.
  ['AWS::S3::Bucket', 'conditional', 'stateful unless the emptiness probe finds it empty'],
  ['AWS::Logs::LogGroup', 'conditional', 'stateful unless the emptiness probe finds no stream'],
  // Deliberately not guarded (the service spec marks SQS::Queue stateful; the spec overrides it).
  ['AWS::SQS::Queue', 'not-stateful', "a queue's backlog is transient"],
  ['AWS::EC2::Instance', 'not-stateful', 'the root volume is ephemeral by design'],
  ['AWS::KMS::Alias', 'not-stateful', 'a pointer, not key material'],
  ['AWS::S3Tables::Namespace', 'not-stateful', 'AWS refuses to delete a non-empty namespace'],
  ['AWS::RDS::GlobalCluster', 'not-stateful', 'regional clusters outlive it'],
  ['AWS::Neptune::GlobalCluster', 'not-stateful', 'regional clusters outlive it'],
  ['AWS::DocDB::GlobalCluster', 'not-stateful', 'regional clusters outlive it'],
  ['AWS::RedshiftServerless::Workgroup', 'not-stateful', 'compute against a guarded namespace'],
  ['AWS::Amplify::Domain', 'not-stateful', 'DNS, not a store'],
  ['AWS::Cognito::UserPoolDomain', 'not-stateful', 'DNS, not a store'],
  ['AWS::Lightsail::Domain', 'not-stateful', 'DNS, not a store'],
  ['AWS::EC2::TransitGatewayRouteTable', 'not-stateful', 'holds nothing but tags'],
];

const byType = new Map(STATEFUL_TYPE_TABLE.map(([type, verdict]) => [type, verdict]));

/** The spec's verdict for a type it names, else undefined. */
export function statefulTableVerdict(type: string): Statefulness | undefined {
  return byType.get(type);
}
