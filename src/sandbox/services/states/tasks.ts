import { randomUUID } from 'node:crypto';
import {
  dynamoDbCaller,
  eventBus,
  lambdaInvoker,
  snsPublisher,
  sqsSender,
  type EventEntry,
} from '../../ports/index.js';
import type { SandboxContext } from '../../service-module.js';
import { StatesError } from './asl/errors.js';

type Payload = Record<string, unknown>;

/** Starts a child execution; with `wait`, resolves once it ends. */
export type StartChild = (
  arn: string,
  input: unknown,
  wait: boolean,
) => Promise<{
  executionArn: string;
  startDate: number;
  result?: { status: string; output?: string; error?: string; cause?: string };
}>;

/**
 * A Task state's resource: Lambda (the optimized `lambda:invoke` or a function ARN), the
 * optimized SQS, SNS, DynamoDB and EventBridge integrations, and `states:startExecution`
 * (`.sync` waits for the child, `.sync:2` parses its output). Anything else fails the task
 * naming the resource.
 */
export async function invokeTask(
  context: SandboxContext,
  resource: string,
  payload: unknown,
  startChild: StartChild,
): Promise<unknown> {
  const input = (payload ?? {}) as Payload;
  if (resource.startsWith('arn:aws:lambda:')) return lambda(context, resource, payload, false);
  const match =
    /^arn:aws:states:[^:]*:[^:]*:([a-z0-9-]+):([A-Za-z]+)(\.sync(?::2)?|\.waitForTaskToken)?$/.exec(resource);
  const [, service, action, mode] = match ?? [];
  switch (`${service}:${action}`) {
    case 'lambda:invoke':
      return lambda(context, String(input.FunctionName ?? ''), input.Payload ?? {}, true);
    case 'sqs:sendMessage': {
      const url = String(input.QueueUrl ?? '');
      const [account, name] = url.split('/').slice(-2);
      const arn = `arn:aws:sqs:${context.region}:${account}:${name}`;
      const body =
        typeof input.MessageBody === 'string' ? input.MessageBody : JSON.stringify(input.MessageBody);
      const outcome = await sqsSender.of(context)?.send(arn, body, {
        ...(typeof input.MessageGroupId === 'string' ? { groupId: input.MessageGroupId } : {}),
      });
      if (!outcome?.delivered) throw taskFailed('SQS.QueueDoesNotExist', `The queue ${url} does not exist.`);
      return { MessageId: outcome.messageId ?? randomUUID() };
    }
    case 'sns:publish': {
      const message = typeof input.Message === 'string' ? input.Message : JSON.stringify(input.Message);
      const subject = typeof input.Subject === 'string' ? input.Subject : undefined;
      const outcome = await snsPublisher.of(context)?.publish(String(input.TopicArn ?? ''), message, subject);
      if (!outcome?.delivered)
        throw taskFailed('SNS.NotFoundException', `Topic ${String(input.TopicArn)} does not exist`);
      return { MessageId: randomUUID() };
    }
    case 'dynamodb:putItem':
    case 'dynamodb:getItem':
    case 'dynamodb:updateItem':
    case 'dynamodb:deleteItem': {
      const operation = action!.charAt(0).toUpperCase() + action!.slice(1);
      const answer = await dynamoDbCaller.of(context)?.call(context.region, operation, input);
      if (!answer) throw taskFailed('DynamoDB.Unavailable', 'DynamoDB is not served');
      if ('code' in answer) throw taskFailed(`DynamoDB.${answer.code}`, answer.message);
      return answer.output;
    }
    case 'events:putEvents': {
      const entries = (input.Entries as Array<Payload & EventEntry & { EventBusName?: string }>) ?? [];
      for (const entry of entries) {
        const bus = entry.EventBusName ?? 'default';
        const arn = bus.startsWith('arn:')
          ? bus
          : `arn:aws:events:${context.region}:${context.accountId}:event-bus/${bus}`;
        const detail = typeof entry.Detail === 'string' ? entry.Detail : JSON.stringify(entry.Detail ?? {});
        await eventBus
          .of(context)
          ?.put(arn, [{ Source: entry.Source, DetailType: entry.DetailType, Detail: detail }]);
      }
      return { Entries: entries.map(() => ({ EventId: randomUUID() })), FailedEntryCount: 0 };
    }
    case 'states:startExecution': {
      const wait = mode === '.sync' || mode === '.sync:2';
      const started = await startChild(String(input.StateMachineArn ?? ''), input.Input ?? {}, wait);
      if (!wait) return { ExecutionArn: started.executionArn, StartDate: started.startDate };
      const result = started.result!;
      if (result.status !== 'SUCCEEDED')
        throw taskFailed(result.error ?? 'States.TaskFailed', result.cause ?? '');
      return {
        ExecutionArn: started.executionArn,
        Status: result.status,
        Output: mode === '.sync:2' ? JSON.parse(result.output ?? 'null') : result.output,
      };
    }
    default:
      throw taskFailed('States.Runtime', `The cdkd sandbox does not run the task resource ${resource}`);
  }
}

async function lambda(
  context: SandboxContext,
  target: string,
  payload: unknown,
  optimized: boolean,
): Promise<unknown> {
  const arn = target.startsWith('arn:')
    ? target
    : `arn:aws:lambda:${context.region}:${context.accountId}:function:${target}`;
  const result = await lambdaInvoker.of(context)?.invoke(arn, JSON.stringify(payload ?? {}));
  if (!result) throw taskFailed('Lambda.ServiceException', 'Lambda is not served');
  if (!result.delivered) throw taskFailed(`Lambda.${result.code}`, result.message);
  const output = JSON.parse(result.payload || 'null') as unknown;
  if (result.functionError) {
    const error = (output as { errorType?: string } | null)?.errorType ?? 'Error';
    throw taskFailed(error, result.payload);
  }
  return optimized
    ? {
        ExecutedVersion: result.executedVersion,
        Payload: output,
        StatusCode: 200,
        SdkHttpMetadata: {},
        SdkResponseMetadata: {},
      }
    : output;
}

function taskFailed(error: string, cause: string): StatesError {
  return new StatesError(error, cause);
}
