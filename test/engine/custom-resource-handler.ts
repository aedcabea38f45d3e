import { PUT_RESPONSE_JS } from '../helpers/response-put.js';

/**
 * A custom resource handler (Node.js, CommonJS as an inline ZipFile is) that records every
 * request it gets as an object `requests/{n}-{RequestType}-{PhysicalResourceId}` in the bucket
 * `RECORD_BUCKET`, then answers the ResponseURL: SUCCESS with the physical id `thing-{Name}`
 * and Data echoing what it was sent, or FAILED when `Fail` is "true".
 */
export const RECORDING_HANDLER = `
${PUT_RESPONSE_JS}const { S3Client, PutObjectCommand } = require('@aws-sdk/client-s3');
const s3 = new S3Client({ forcePathStyle: true });
let n = 0;
exports.handler = async (event) => {
  const props = event.ResourceProperties;
  const physicalId = event.RequestType === 'Delete' ? event.PhysicalResourceId : 'thing-' + props.Name;
  await s3.send(new PutObjectCommand({
    Bucket: process.env.RECORD_BUCKET,
    Key: 'requests/' + String(Date.now()).padStart(15, '0') + '-' + (n++) + '-' + event.RequestType + '-' + physicalId,
    Body: JSON.stringify(event),
  }));
  const failed = props.Fail === 'true' && event.RequestType !== 'Delete';
  await put(event.ResponseURL, JSON.stringify({
    Status: failed ? 'FAILED' : 'SUCCESS',
    Reason: failed ? 'asked to fail by the template' : undefined,
    PhysicalResourceId: physicalId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    NoEcho: props.Secret === 'true',
    Data: { Greeting: 'hello ' + props.Name, CountType: typeof props.Count, Old: event.OldResourceProperties ? event.OldResourceProperties.Name : 'none' },
  }));
};
`;

/** A role, the recording handler's function, and a custom resource of `type` it serves with `properties`. */
export function customResourceStack(
  recordBucket: string,
  properties: Record<string, unknown>,
  options: { type?: string; extra?: Record<string, unknown> } = {},
) {
  return servedCustomResource(RECORDING_HANDLER, properties, {
    ...options,
    environment: { RECORD_BUCKET: recordBucket },
  });
}

/** A role, a function running the inline handler `code`, and a custom resource `Thing` it serves. */
export function servedCustomResource(
  code: string,
  properties: Record<string, unknown>,
  options: { type?: string; extra?: Record<string, unknown>; environment?: Record<string, string> } = {},
) {
  return {
    Role: {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
          ],
        },
      },
    },
    Handler: {
      Type: 'AWS::Lambda::Function',
      Properties: {
        Runtime: 'nodejs20.x',
        Handler: 'index.handler',
        Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
        Timeout: 30,
        Code: { ZipFile: code },
        ...(options.environment ? { Environment: { Variables: options.environment } } : {}),
      },
    },
    Thing: {
      Type: options.type ?? 'Custom::Thing',
      Properties: { ServiceToken: { 'Fn::GetAtt': ['Handler', 'Arn'] }, ...properties },
    },
    ...options.extra,
  };
}
