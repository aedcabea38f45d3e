import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, expect } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import type { StackIdentity } from '../../src/engine/engine-context.js';
import { createEngine, type Engine } from '../../src/engine/engine.js';
import type { DeployEvent } from '../../src/engine/events.js';
import type { RollbackRequest } from '../../src/engine/journal/rollback-stack.js';
import type { DeployOptions } from '../../src/engine/stack-request.js';
import type { FaultSpec } from '../../src/sandbox/admin/faults.js';
import { openStateBackend, type StateBackend } from '../../src/state/state-backend.js';
import { defaultRegistry } from '../../src/toolkit/session/provider-wiring.js';
import { useSandbox } from './sandbox.js';
import { eventsTo, plansAnswered, yesToPlans } from './recording-io-host.js';
import type { IoHost } from '../../src/messages/index.js';

/** The one region the engine tests deploy to. */
export const REGION = 'us-east-1';

/** A trust policy that lets Lambda assume the role. */
export const LAMBDA_TRUST = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

/** An `AWS::IAM::Role` template resource Lambda may assume, with `properties` beside its trust policy. */
export function iamRole(properties: Record<string, unknown> = {}) {
  return { Type: 'AWS::IAM::Role', Properties: { AssumeRolePolicyDocument: LAMBDA_TRUST, ...properties } };
}

/** The stack `stackName` in {@link REGION}, its state kept under the same name. */
export function stackIdentity(stackName: string): StackIdentity {
  return { stateName: stackName, stackName, region: REGION, accountId: '000000000000' };
}

/** A sandbox fault that fails the next SQS CreateQueue with a 400, as an invalid attribute would. */
export const NEXT_CREATE_QUEUE_FAILS: FaultSpec = {
  service: 'sqs',
  operation: 'CreateQueue',
  errorCode: 'InvalidAttributeValue',
  httpStatus: 400,
  message: 'injected',
};

/** A `cdkd rollback` of `stackName` (its plan agreed by the harness's engines), reverting no failed operation and orphans nothing. */
export function rollbackRequest(
  stackName: string,
  overrides: Partial<RollbackRequest> = {},
): RollbackRequest {
  return {
    stack: stackIdentity(stackName),
    revertFailed: false,
    orphan: new Set(),
    force: false,
    ...overrides,
  };
}

/**
 * Starts a sandbox for the test file, with its state bucket `bucket`, and builds engines on it
 * with the real providers. Read the accessors inside tests or hooks: they are set in beforeAll.
 */
export function useSandboxEngine(bucket: string) {
  const sandbox = useSandbox();
  const clients = new AwsClients();
  let backend: StateBackend | undefined;
  let events: DeployEvent[] = [];

  beforeAll(async () => {
    await (await clients.s3()).send(new CreateBucketCommand({ Bucket: bucket }));
    backend = await openStateBackend(clients, bucket, 'cdkd');
  });

  /**
   * An engine whose events `events` records, from an empty list; `listener` sees each one
   * after; `ask` answers its questions (else every plan is agreed, and each other question takes its default).
   */
  async function engine(listener?: (event: DeployEvent) => void, ask?: IoHost['ask']): Promise<Engine> {
    const recorded: DeployEvent[] = [];
    events = recorded;
    return createEngine({
      backend: stateBackend(),
      clients,
      registry: defaultRegistry(),
      io: eventsTo((event) => {
        recorded.push(event);
        listener?.(event);
      }, ask ?? yesToPlans),
      command: 'deploy',
      regions: [REGION],
    });
  }

  function stateBackend(): StateBackend {
    if (!backend) throw new Error('the state backend opens in beforeAll');
    return backend;
  }

  return {
    /** The sandbox's base URL. */
    get url(): string {
      return sandbox.current.url;
    },
    clients,
    get backend(): StateBackend {
      return stateBackend();
    },
    /** What the engine built last reported. */
    get events(): DeployEvent[] {
      return events;
    },
    engine,
    /** Deploys the template `{ Resources: resources }` as the stack `stackName`; `ask` answers its questions. */
    async deploy(
      stackName: string,
      resources: Record<string, unknown>,
      options: Partial<DeployOptions> = {},
      ask?: IoHost['ask'],
    ) {
      return (await engine(undefined, ask)).deploy(
        { ...stackIdentity(stackName), template: { Resources: resources } },
        { concurrency: 4, ...options },
      );
    },
    /** Runs {@link rollbackRequest} of `stackName` on a fresh engine; `confirm` answers its plan (default yes). */
    async rollback(
      stackName: string,
      overrides: Partial<RollbackRequest> & { confirm?: (lines: string[]) => Promise<boolean> } = {},
    ) {
      const { confirm, ...request } = overrides;
      return (await engine(undefined, confirm && plansAnswered(confirm))).rollback(
        rollbackRequest(stackName, request),
      );
    },
    /** Adds a fault to the sandbox: a matching call fails (or is delayed) as `fault` says. */
    async addFault(fault: FaultSpec): Promise<void> {
      const response = await fetch(`${sandbox.current.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(fault),
      });
      expect(response.status).toBe(201);
    },
  };
}
