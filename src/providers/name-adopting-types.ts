/**
 * Spec 002 "Creates that adopt a taken name": the types whose create returns, overwrites or
 * (in cdkd's own provider) reads as success a resource already holding the name it sends.
 * A create of one of them under a name the template gives looks that name up first.
 */
export const NAME_ADOPTING_TYPES: ReadonlySet<string> = new Set([
  'AWS::SQS::Queue',
  'AWS::SNS::Topic',
  'AWS::StepFunctions::StateMachine',
  'AWS::ECS::Cluster',
  'AWS::Events::Rule',
  'AWS::CloudWatch::Alarm',
  'AWS::Logs::LogGroup',
  'AWS::S3::Bucket',
  'AWS::ElasticLoadBalancingV2::LoadBalancer',
  'AWS::ElasticLoadBalancingV2::TargetGroup',
]);
