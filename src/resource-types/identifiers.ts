/**
 * Types whose identifiers AWS matches regardless of case (spec 000, last paragraphs of
 * "Failed CREATEs that made their resource"): a record holding `mycluster` holds the
 * cluster a journal names `MyCluster`.
 */
const CASE_INSENSITIVE_IDS: ReadonlySet<string> = new Set([
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::RDS::DBSubnetGroup',
  'AWS::DocDB::DBCluster',
  'AWS::DocDB::DBInstance',
  'AWS::DocDB::DBSubnetGroup',
  'AWS::Neptune::DBCluster',
  'AWS::Neptune::DBInstance',
  'AWS::Neptune::DBSubnetGroup',
  'AWS::ElastiCache::CacheCluster',
  'AWS::ElastiCache::SubnetGroup',
  'AWS::IAM::Role',
  'AWS::IAM::User',
  'AWS::IAM::Group',
  'AWS::IAM::InstanceProfile',
  'AWS::IAM::ManagedPolicy',
  'AWS::Glue::Table',
]);

/** Glue folds ASCII letters only; other non-ASCII letters stay distinct. */
const ASCII_FOLD_ONLY: ReadonlySet<string> = new Set(['AWS::Glue::Table']);

export function comparesIdsIgnoringCase(type: string): boolean {
  return CASE_INSENSITIVE_IDS.has(type);
}

/** Whether two physical ids of `type` name the same resource: exact, except where AWS ignores case. */
export function sameId(type: string, a: string, b: string): boolean {
  if (a === b) return true;
  if (!comparesIdsIgnoringCase(type)) return false;
  if (ASCII_FOLD_ONLY.has(type)) return foldAscii(a) === foldAscii(b);
  return a.toLowerCase() === b.toLowerCase();
}

export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * Types whose physical id AWS generates and never gives a later resource, so the id alone
 * proves which resource it is and no recorded creation identity is needed (spec 000). Only
 * ids with a random part AWS mints belong here: `vpc-`, `subnet-`, `sg-`, `nat-`, `eipalloc-`
 * and the like, EFS/FSx file system ids, KMS key ids, and ELBv2 ARNs (which end in a random
 * id). A type whose id is a name the user chose can be reused, so it is not listed.
 */
const GENERATED_IDS: ReadonlySet<string> = new Set([
  'AWS::EC2::VPC',
  'AWS::EC2::Subnet',
  'AWS::EC2::SecurityGroup',
  'AWS::EC2::InternetGateway',
  'AWS::EC2::EgressOnlyInternetGateway',
  'AWS::EC2::NatGateway',
  'AWS::EC2::EIP',
  'AWS::EC2::RouteTable',
  'AWS::EC2::NetworkAcl',
  'AWS::EC2::NetworkInterface',
  'AWS::EC2::VPCEndpoint',
  'AWS::EC2::VPCPeeringConnection',
  'AWS::EC2::VPNGateway',
  'AWS::EC2::CustomerGateway',
  'AWS::EC2::DHCPOptions',
  'AWS::EC2::TransitGateway',
  'AWS::EC2::TransitGatewayAttachment',
  'AWS::EC2::PrefixList',
  'AWS::EC2::FlowLog',
  'AWS::EC2::LaunchTemplate',
  'AWS::EC2::Instance',
  'AWS::EC2::Volume',
  'AWS::EFS::FileSystem',
  'AWS::EFS::AccessPoint',
  'AWS::EFS::MountTarget',
  'AWS::FSx::FileSystem',
  'AWS::KMS::Key',
  'AWS::ElasticLoadBalancingV2::LoadBalancer',
  'AWS::ElasticLoadBalancingV2::TargetGroup',
  'AWS::ElasticLoadBalancingV2::Listener',
  'AWS::ElasticLoadBalancingV2::ListenerRule',
  'AWS::Route53::HostedZone',
  'AWS::CloudFront::Distribution',
  'AWS::ApiGateway::RestApi',
  'AWS::ApiGatewayV2::Api',
  'AWS::Cognito::UserPool',
  // The delete compares the policy it finds, so the id needs no proof (spec 000).
  'AWS::SQS::QueuePolicy',
  'AWS::SNS::TopicPolicy',
  // A nested stack's id is one only cdkd mints.
  'AWS::CloudFormation::Stack',
]);

export function needsNoCreationIdentity(type: string): boolean {
  return GENERATED_IDS.has(type);
}
