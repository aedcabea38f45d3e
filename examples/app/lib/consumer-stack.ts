import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';

export interface ConsumerStackProps extends StackProps {
  bucket: IBucket;
}

/**
 * Reads the storage stack's bucket through a prop, so CDK joins the stacks with
 * an Export in CdkdDemoStorage and Fn::ImportValue here.
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
  }
}
