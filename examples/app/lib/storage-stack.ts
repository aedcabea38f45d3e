import { fileURLToPath } from 'node:url';
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function, Runtime } from 'aws-cdk-lib/aws-lambda';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { NotificationsStack } from './notifications-stack.js';

/** The demo's first stack: one of each common resource type, a nested stack and outputs. */
export class StorageStack extends Stack {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.bucket = new Bucket(this, 'Bucket', { removalPolicy: RemovalPolicy.DESTROY });
    const queue = new Queue(this, 'Queue', { removalPolicy: RemovalPolicy.DESTROY });
    const topic = new Topic(this, 'Topic', { displayName: 'cdkd demo' });
    const table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const role = new Role(this, 'FunctionRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    const handler = new Function(this, 'Function', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromAsset(fileURLToPath(new URL('../lambda', import.meta.url))),
      role,
      environment: {
        BUCKET_NAME: this.bucket.bucketName,
        TABLE_NAME: table.tableName,
        QUEUE_URL: queue.queueUrl,
        TOPIC_ARN: topic.topicArn,
      },
    });
    this.bucket.grantRead(role);
    table.grantReadWriteData(role);

    const notifications = new NotificationsStack(this, 'Notifications', {
      removalPolicy: RemovalPolicy.DESTROY,
    });

    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName });
    new CfnOutput(this, 'TableName', { value: table.tableName });
    new CfnOutput(this, 'FunctionName', { value: handler.functionName });
    new CfnOutput(this, 'QueueUrl', { value: queue.queueUrl });
    new CfnOutput(this, 'AlertsQueueArn', { value: notifications.alertsQueue.queueArn });
  }
}
