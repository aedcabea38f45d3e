import { writeAssembly } from '../helpers/write-assembly.js';
import { PUT_RESPONSE_JS } from '../helpers/response-put.js';
import { servedCustomResource } from '../engine/custom-resource-handler.js';

/** The stack every chaos schedule deploys. */
export const CHAOS_STACK = 'Chaos';

/** Three generations of the app: 1 creates, 2 updates in place, 3 replaces, removes and adds. */
export type ChaosVersion = 1 | 2 | 3;

/** The resources a recreate step may name, with the layer each one starts on. */
export const RECREATABLE = ['Queue', 'Param'] as const;

/** A custom resource handler that makes nothing: it answers SUCCESS with `thing-<Name>`. */
const HANDLER = `${PUT_RESPONSE_JS}
exports.handler = async (event) => {
  const physicalId = event.RequestType === 'Create' || event.ResourceProperties.Name !== (event.OldResourceProperties || {}).Name
    ? 'thing-' + event.ResourceProperties.Name
    : event.PhysicalResourceId;
  await put(event.ResponseURL, JSON.stringify({
    Status: 'SUCCESS',
    PhysicalResourceId: event.RequestType === 'Delete' ? event.PhysicalResourceId : physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: { Greeting: 'hello ' + event.ResourceProperties.Name },
  }));
};
`;

/**
 * A small real stack: SDK-provider types under generated names (queue, role, function) and
 * explicit ones (topic, parameter, log group), one Cloud Control type (an ECS cluster), and a
 * custom resource served by an inline Lambda handler.
 */
export function chaosTemplate(version: ChaosVersion): Record<string, unknown> {
  const resources: Record<string, unknown> = {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: version === 1 ? 30 : 45 } },
    Topic: {
      Type: 'AWS::SNS::Topic',
      Properties: { TopicName: version === 3 ? 'chaos-topic-b' : 'chaos-topic' },
    },
    Param: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: '/chaos/param', Type: 'String', Value: { 'Fn::GetAtt': ['Queue', 'Arn'] } },
    },
    Cluster: {
      Type: 'AWS::ECS::Cluster',
      Properties: { Tags: [{ Key: 'generation', Value: String(version) }] },
    },
    ...servedCustomResource(HANDLER, { Name: version === 3 ? 'c' : 'a', Topic: { Ref: 'Topic' } }),
  };
  if (version !== 3) {
    resources.Logs = {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: '/chaos/logs', RetentionInDays: version === 1 ? 7 : 14 },
    };
  } else {
    resources.Extra = { Type: 'AWS::SQS::Queue', Properties: { DelaySeconds: 5 } };
  }
  return { Resources: resources };
}

/** Writes the cloud assembly of `version` into `dir` (replacing what was there). */
export function writeChaosAssembly(dir: string, version: ChaosVersion): string {
  return writeAssembly(dir, [{ id: CHAOS_STACK, template: chaosTemplate(version) }]);
}
