import { randomUUID } from 'node:crypto';
import { CdkdError } from '../../errors.js';
import type { DeployEvent, IoHost } from '../../messages/index.js';
import type { AccountRoute, Session } from '../session/session.js';
import { warn, type ToolkitIo } from '../io.js';
import { cloudFormationStatus, notificationMessage } from './cloudformation-notification.js';

/**
 * A stack's notification topics (the app's `notificationArns` and `--notification-arns`) and
 * where it lives: its account publishes them, as CloudFormation does in the stack's account.
 */
export interface NotifiedStack extends AccountRoute {
  stackName: string;
  topics: readonly string[];
}

const SUBJECT = 'AWS CloudFormation Notification';

/** The region of an SNS topic ARN, or a refusal naming it. */
function topicRegion(arn: string): string {
  const match = /^arn:aws[a-z-]*:sns:([a-z0-9-]+):\d{12}:[A-Za-z0-9_.-]+$/.exec(arn);
  if (!match) {
    throw new CdkdError('NOTIFICATION_ARN_INVALID', `${arn} is not an SNS topic ARN.`, {
      hint: "Pass topic ARNs as arn:aws:sns:REGION:ACCOUNT:NAME (--notification-arns, or the stack's notificationArns).",
    });
  }
  return match[1]!;
}

/**
 * Every topic checked before any stack is touched, as CloudFormation refuses a stack whose
 * notification topic it cannot find: a deploy that could not tell anyone does not start.
 */
export async function checkNotificationTopics(
  session: Session,
  stacks: readonly NotifiedStack[],
): Promise<void> {
  const checked = new Set<string>();
  for (const stack of stacks) {
    for (const arn of stack.topics) {
      const key = `${stack.accountId} ${arn}`;
      if (checked.has(key)) continue;
      checked.add(key);
      await checkTopic(session, stack, arn);
    }
  }
}

async function checkTopic(session: Session, stack: NotifiedStack, arn: string): Promise<void> {
  const { GetTopicAttributesCommand, SNSClient } = await import('@aws-sdk/client-sns');
  const account = await session.forAccount(stack);
  const sns = await account.clients.client(SNSClient, topicRegion(arn));
  try {
    await sns.send(new GetTopicAttributesCommand({ TopicArn: arn }));
  } catch (cause) {
    throw new CdkdError(
      'NOTIFICATION_TOPIC_NOT_FOUND',
      `The notification topic ${arn} cannot be used: ${(cause as Error).message}`,
      { hint: 'Create the topic (or fix its ARN) and deploy again; nothing was changed.', cause },
    );
  }
}

/**
 * Publishes each stack event of a deploy to the stack's notification topics in the form
 * CloudFormation sends, in order per topic. A topic that stops accepting messages is warned
 * about once; the deploy goes on, as CloudFormation's does.
 */
export class StackNotifier {
  private readonly firstDeploy = new Set<string>();
  private readonly failedTopics = new Set<string>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: Session,
    private readonly stacks: readonly NotifiedStack[],
    private readonly options: ToolkitIo & { rollback: boolean },
  ) {}

  /** `io`, with every resource and stack event also published. */
  io(io: IoHost): IoHost {
    return {
      notify: (message) => {
        if (message.code === 'CDKD_I2000' || message.code === 'CDKD_I2001')
          this.publish(message.data as Extract<DeployEvent, { kind: 'resource' } | { kind: 'stack' }>);
        return io.notify(message);
      },
      ask: (question) => io.ask(question),
    };
  }

  /** Waits for every message published so far. */
  flush(): Promise<void> {
    return this.queue;
  }

  private publish(event: Extract<DeployEvent, { kind: 'resource' } | { kind: 'stack' }>): void {
    const stack = this.stackOf(event.stack);
    if (!stack || stack.topics.length === 0) return;
    if (event.kind === 'stack' && event.status === 'started' && event.firstDeploy)
      this.firstDeploy.add(event.stack);
    const status = cloudFormationStatus(event, {
      firstDeploy: this.firstDeploy.has(event.stack),
      rollback: this.options.rollback,
    });
    if (status === undefined) return;
    const message = notificationMessage(event, status, {
      accountId: stack.accountId,
      region: stack.region,
      eventId: randomUUID(),
      timestamp: new Date(),
    });
    this.queue = this.queue.then(() => this.send(stack, message));
  }

  private async send(stack: NotifiedStack, message: string): Promise<void> {
    const { PublishCommand, SNSClient } = await import('@aws-sdk/client-sns');
    for (const arn of stack.topics) {
      if (this.failedTopics.has(arn)) continue;
      try {
        const account = await this.session.forAccount(stack);
        const sns = await account.clients.client(SNSClient, topicRegion(arn));
        await sns.send(new PublishCommand({ TopicArn: arn, Subject: SUBJECT, Message: message }));
      } catch (error) {
        this.failedTopics.add(arn);
        warn(this.options, `stack events are no longer published to ${arn}: ${(error as Error).message}`);
      }
    }
  }

  /** A nested stack's events go to its top-level stack's topics, as CloudFormation's nested stacks inherit them. */
  private stackOf(name: string): NotifiedStack | undefined {
    return (
      this.stacks.find((stack) => stack.stackName === name) ??
      this.stacks.find((stack) => name.startsWith(`${stack.stackName}-`))
    );
  }
}
