import { CdkdError } from '../../errors.js';

/** Where a custom resource's request goes: a Lambda function, or an SNS topic that publishes it. */
export type ServiceTarget =
  | { kind: 'lambda'; functionName: string; region: string }
  | { kind: 'sns'; topicArn: string; region: string };

const LAMBDA_ARN = /^arn:[^:]+:lambda:([a-z0-9-]+):\d{12}:function:[^:]+(:[^:]+)?$/;
const SNS_ARN = /^arn:[^:]+:sns:([a-z0-9-]+):\d{12}:[^:]+$/;

/** The target a `ServiceToken` names, as CloudFormation accepts it: a function ARN (qualified or not) or a topic ARN. */
export function serviceTarget(logicalId: string, token: unknown): ServiceTarget {
  if (typeof token === 'string') {
    const lambda = LAMBDA_ARN.exec(token);
    if (lambda) return { kind: 'lambda', functionName: token, region: lambda[1]! };
    const sns = SNS_ARN.exec(token);
    if (sns) return { kind: 'sns', topicArn: token, region: sns[1]! };
  }
  const problem =
    token === undefined
      ? 'has no ServiceToken'
      : typeof token === 'string'
        ? `has ServiceToken ${token}, which is neither a Lambda function ARN nor an SNS topic ARN`
        : 'has a ServiceToken that is not a string';
  throw new CdkdError('CUSTOM_RESOURCE_SERVICE_TOKEN', `${logicalId} ${problem}.`, {
    hint: 'Set ServiceToken to the ARN of the Lambda function or SNS topic that handles the custom resource (Fn::GetAtt Function.Arn, or Ref Topic).',
  });
}
