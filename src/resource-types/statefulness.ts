/**
 * Spec 002 "How the stateful list is kept complete" and "Why each category is on the list":
 * the types whose replacement needs --force-stateful-recreation, the two conditionally
 * stateful ones, and the types the spec deliberately leaves unguarded. Types the spec
 * does not name fall back to the service spec's `isStateful` flag (resource-schemas.ts).
 */
export type Statefulness = 'stateful' | 'conditional' | 'not-stateful';

/**
 * What a pre-flight emptiness probe answered (spec 002 "The emptiness probes"). The engine
 * runs the probes; `not-found` for a log group only once the client's region is confirmed.
 */
export type EmptinessVerdict = 'empty' | 'not-found' | 'non-empty' | 'probe-failed';

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
  // Joined through the tier-2 sweep (scripts/audit-stateful-candidates.ts): an immutable
  // property makes a plain deploy replace them, and each stores something.
  ['AWS::Cassandra::Table', 'stateful', 'holds the rows'],
  ['AWS::Timestream::Database', 'stateful', 'deleting it deletes its tables'],
  ['AWS::Timestream::Table', 'stateful', 'holds the records'],
  ['AWS::Timestream::InfluxDBCluster', 'stateful', 'a database'],
  ['AWS::DocDBElastic::Cluster', 'stateful', 'a database'],
  ['AWS::MemoryDB::Cluster', 'stateful', 'a durable in-memory database'],
  ['AWS::NeptuneGraph::Graph', 'stateful', 'a graph database'],
  ['AWS::ODB::CloudVmCluster', 'stateful', 'Oracle databases'],
  ['AWS::ODB::CloudAutonomousVmCluster', 'stateful', 'Oracle databases'],
  ['AWS::Lightsail::Database', 'stateful', 'a database'],
  ['AWS::Lightsail::Bucket', 'stateful', 'holds the objects'],
  ['AWS::S3Outposts::Bucket', 'stateful', 'holds the objects'],
  ['AWS::S3Files::FileSystem', 'stateful', 'a file system (unmeasured, fail-safe)'],
  ['AWS::S3Vectors::Index', 'stateful', 'holds the vectors'],
  ['AWS::FSx::Volume', 'stateful', 'holds the files'],
  ['AWS::StorageGateway::Volume', 'stateful', 'holds the volume data'],
  ['AWS::WorkspacesInstances::Volume', 'stateful', 'holds the volume data'],
  ['AWS::WorkSpaces::Workspace', 'stateful', "the user's volume"],
  ['AWS::EMR::WALWorkspace', 'stateful', "HBase's write-ahead logs"],
  ['AWS::Serverless::SimpleTable', 'stateful', 'a DynamoDB table'],
  ['AWS::Logs::LogStream', 'stateful', 'holds the log events'],
  ['AWS::KinesisVideo::Stream', 'stateful', 'retains video'],
  ['AWS::Events::Archive', 'stateful', 'retains events'],
  ['AWS::APS::Workspace', 'stateful', 'holds the metrics'],
  ['AWS::ECR::Repository', 'stateful', 'images pushed through the API'],
  ['AWS::ECR::PublicRepository', 'stateful', 'images pushed through the API'],
  ['AWS::Kendra::Index', 'stateful', 'indexed documents'],
  ['AWS::QBusiness::Index', 'stateful', 'indexed documents'],
  ['AWS::OpenSearchServerless::Index', 'stateful', 'indexed documents'],
  ['AWS::OpenSearchServerless::CollectionIndex', 'stateful', 'indexed documents'],
  ['AWS::Glue::Catalog', 'stateful', 'metadata written by crawlers and the API'],
  ['AWS::Glue::Database', 'stateful', 'deleting it deletes its tables'],
  ['AWS::Grafana::Workspace', 'stateful', 'dashboards made in the console'],
  ['AWS::IoTTwinMaker::Workspace', 'stateful', 'entities and scenes written through the API'],
  ['AWS::Omics::AnnotationStore', 'stateful', 'holds the annotations'],
  ['AWS::Omics::ReferenceStore', 'stateful', 'holds the references'],
  ['AWS::Omics::SequenceStore', 'stateful', 'holds the sequences'],
  ['AWS::Omics::VariantStore', 'stateful', 'holds the variants'],
  ['AWS::Forecast::Dataset', 'stateful', 'imported data'],
  ['AWS::Personalize::Dataset', 'stateful', 'imported interactions'],
  ['AWS::Rekognition::Dataset', 'stateful', 'images and labels'],
  ['AWS::IoTAnalytics::Dataset', 'stateful', 'dataset contents'],
  ['AWS::IoTSiteWise::Dataset', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::BedrockAgentCore::Dataset', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::SCN::Dataset', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::SCN::Namespace', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::HealthAgent::Domain', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::AWSExternalAnthropic::Workspace', 'stateful', 'unmeasured, fail-safe'],
  ['AWS::CleanRooms::IdMappingTable', 'stateful', 'holds the mapping (unmeasured, fail-safe)'],
  ['AWS::CleanRooms::IntermediateTable', 'stateful', 'holds analysis results'],
  ['AWS::Backup::LogicallyAirGappedBackupVault', 'stateful', 'holds the recovery points'],
  // Snapshots and backups: a copy of the data, whose whole purpose is to outlive its source.
  ['AWS::RDS::DBSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::RDS::ClusterSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::Redshift::Snapshot', 'stateful', 'a copy of the data'],
  ['AWS::RedshiftServerless::Snapshot', 'stateful', 'a copy of the data'],
  ['AWS::DocDBElastic::ClusterSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::ElastiCache::ServerlessCacheSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::MemoryDB::Snapshot', 'stateful', 'a copy of the data'],
  ['AWS::NeptuneGraph::GraphSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::FSx::Backup', 'stateful', 'a copy of the data'],
  ['AWS::FSx::Snapshot', 'stateful', 'a copy of the data'],
  ['AWS::Lightsail::DatabaseSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::Lightsail::DiskSnapshot', 'stateful', 'a copy of the data'],
  ['AWS::Lightsail::InstanceSnapshot', 'stateful', 'a copy of the data'],
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

/**
 * The types CloudFormation allows DeletionPolicy: Snapshot on (cdkd keeps such a resource on
 * delete rather than snapshotting it): each must be on the list (the first bound).
 */
export const SNAPSHOT_TYPES: readonly string[] = [
  'AWS::EC2::Volume',
  'AWS::ElastiCache::CacheCluster',
  'AWS::ElastiCache::ReplicationGroup',
  'AWS::Neptune::DBCluster',
  'AWS::DocDB::DBCluster',
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::Redshift::Cluster',
];

/** Types whose delete needs the --force-stateful-recreation consent to clear its data (the second bound). */
export const CONSENT_CONSUMING_DELETES: readonly string[] = ['AWS::S3Express::DirectoryBucket'];

const byType = new Map(STATEFUL_TYPE_TABLE.map(([type, verdict]) => [type, verdict]));

/** Why the table gives a type its verdict, else undefined. */
export function statefulTableReason(type: string): string | undefined {
  return STATEFUL_TYPE_TABLE.find(([listed]) => listed === type)?.[2];
}

/** The spec's verdict for a type it names, else undefined. */
export function statefulTableVerdict(type: string): Statefulness | undefined {
  return byType.get(type);
}
