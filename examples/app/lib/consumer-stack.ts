import { CfnOutput, CustomResource, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Provider } from 'aws-cdk-lib/custom-resources';
import type { Construct } from 'constructs';

export interface ConsumerStackProps extends StackProps {
  bucket: IBucket;
}

/**
 * Reads the storage stack's bucket through a prop, so CDK joins the stacks with
 * an Export in CdkdDemoStorage and Fn::ImportValue here; and a custom resource
 * (the CDK's Provider framework around a handler of ours) whose Data is an output.
 */
export class ConsumerStack extends Stack {
  constructor(scope: Construct, id: string, props: ConsumerStackProps) {
    super(scope, id, props);
    new Role(this, 'ReaderRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        ReadBucket: new PolicyDocument({
          statements: [
            new PolicyStatement({ actions: ['s3:GetObject'], resources: [props.bucket.arnForObjects('*')] }),
          ],
        }),
      },
    });
    new CfnOutput(this, 'ConsumedBucketName', { value: props.bucket.bucketName });

    const greeter = new Function(this, 'Greeter', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline(
        "exports.handler = async (event) => ({ PhysicalResourceId: 'greeting', Data: { Message: 'hello from a custom resource, reading ' + event.ResourceProperties.BucketName } });",
      ),
    });
    const provider = new Provider(this, 'GreetingProvider', { onEventHandler: greeter });
    const greeting = new CustomResource(this, 'GreetingResource', {
      serviceToken: provider.serviceToken,
      properties: { BucketName: props.bucket.bucketName },
    });
    new CfnOutput(this, 'Greeting', { value: greeting.getAttString('Message') });
  }
}
