import { CloudWatchLogsClient, FilterLogEventsCommand } from '@aws-sdk/client-cloudwatch-logs';
import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { StackArtifact } from '../../assembly/index.js';
import { awsErrorCode } from '../../aws/error-class.js';
import { messageOf } from '../../errors.js';
import type { Session } from '../session/session.js';
import { stackTarget } from '../stacks/stack-requests.js';

/** How often each function's log group is read for new lines. */
export const LOG_POLL_MS = 1_000;

const FUNCTION_TYPE = 'AWS::Lambda::Function';

interface FollowedFunction {
  functionName: string;
  logGroup: string;
  logs: CloudWatchLogsClient;
  /** Lines from this time on are printed: the function's earlier lines are not news. */
  since: number;
  /** Events already printed at `since`, which the next read returns again. */
  seen: Set<string>;
}

/**
 * `cdkd watch --logs`: the Lambda functions the watched stacks hold (as their state records
 * them), each one's log group read with FilterLogEvents every `everyMs`, each new line given to
 * `print` with its function's name. A log group that does not exist yet (a function never
 * invoked) reads as empty; another failure is reported once per function and the tail goes on.
 */
export class LogTail {
  private followed = new Map<string, FollowedFunction>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private readonly failed = new Set<string>();

  constructor(
    private readonly session: Session,
    private readonly print: (functionName: string, message: string) => void,
    private readonly problem: (message: string) => void,
    private readonly everyMs = LOG_POLL_MS,
  ) {}

  /** Follows the functions `stacks` hold now (new ones from now on; ones already followed carry on). */
  async follow(stacks: readonly StackArtifact[]): Promise<void> {
    const caller = { accountId: await this.session.accountId(), region: await this.session.region() };
    for (const stack of stacks) {
      const target = stackTarget(stack, caller);
      const account = await this.session.forAccount(target);
      const read = await (
        await account.stateBackend()
      ).store.read({ stackName: stack.stackName, region: target.region });
      for (const record of Object.values(read?.document.resources ?? {})) {
        if (record.type !== FUNCTION_TYPE || this.followed.has(record.physicalId)) continue;
        this.followed.set(record.physicalId, {
          functionName: record.physicalId,
          logGroup: await logGroupOf(account, record.physicalId, target.region),
          logs: await account.clients.client(CloudWatchLogsClient, target.region),
          since: Date.now(),
          seen: new Set(),
        });
      }
    }
    this.timer ??= setInterval(() => void this.poll(), this.everyMs);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      await Promise.all([...this.followed.values()].map((followed) => this.read(followed)));
    } finally {
      this.polling = false;
    }
  }

  private async read(followed: FollowedFunction): Promise<void> {
    try {
      let nextToken: string | undefined;
      const fresh: Array<{ id: string; timestamp: number; message: string }> = [];
      do {
        const page = await followed.logs.send(
          new FilterLogEventsCommand({
            logGroupName: followed.logGroup,
            startTime: followed.since,
            ...(nextToken ? { nextToken } : {}),
          }),
        );
        for (const event of page.events ?? []) {
          const id = event.eventId ?? `${event.timestamp}:${event.logStreamName}:${event.message}`;
          if (followed.seen.has(id)) continue;
          fresh.push({ id, timestamp: event.timestamp ?? followed.since, message: event.message ?? '' });
        }
        nextToken = page.nextToken;
      } while (nextToken);
      fresh.sort((a, b) => a.timestamp - b.timestamp);
      for (const event of fresh) {
        if (event.timestamp > followed.since) {
          followed.since = event.timestamp;
          followed.seen.clear();
        }
        followed.seen.add(event.id);
        this.print(followed.functionName, event.message.replace(/\n$/, ''));
      }
    } catch (error) {
      if (awsErrorCode(error) === 'ResourceNotFoundException') return;
      if (this.failed.has(followed.functionName)) return;
      this.failed.add(followed.functionName);
      this.problem(
        `Cannot read the logs of ${followed.functionName} (${followed.logGroup}): ${messageOf(error)}`,
      );
    }
  }
}

/** The log group the function writes to: its LoggingConfig's, else Lambda's default. */
async function logGroupOf(session: Session, functionName: string, region: string): Promise<string> {
  const lambda = await session.clients.client(LambdaClient, region);
  try {
    const config = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: functionName }));
    return config.LoggingConfig?.LogGroup ?? `/aws/lambda/${functionName}`;
  } catch {
    return `/aws/lambda/${functionName}`;
  }
}
