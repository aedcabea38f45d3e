import { NestedStack, RemovalPolicy, type NestedStackProps } from 'aws-cdk-lib';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export interface NotificationsStackProps extends NestedStackProps {
  removalPolicy: RemovalPolicy;
}

/** A nested stack (its own template in the assembly) with a queue and a topic. */
export class NotificationsStack extends NestedStack {
  readonly alertsQueue: Queue;

  constructor(scope: Construct, id: string, props: NotificationsStackProps) {
    super(scope, id, props);
    this.alertsQueue = new Queue(this, 'AlertsQueue', { removalPolicy: props.removalPolicy });
    new Topic(this, 'AlertsTopic', { displayName: 'cdkd demo alerts' });
  }
}
