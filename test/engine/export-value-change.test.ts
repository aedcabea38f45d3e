import { ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { failureOfRun } from '../helpers/error-chain.js';
import { REGION, useSandboxEngine } from '../helpers/sandbox-engine.js';

/**
 * CloudFormation refuses to change an export another stack imports ("Cannot update export
 * <name> as it is in use by <stack>"); cdkd refuses the same, end to end on the sandbox.
 */
const sandbox = useSandboxEngine('export-change-state');

function producer(queueName: string) {
  return {
    Queue: { Type: 'AWS::SQS::Queue', Properties: { QueueName: queueName } },
    Extra: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: queueName } },
  };
}

async function deploy(
  stackName: string,
  resources: Record<string, unknown>,
  outputs: Record<string, unknown>,
) {
  return (await sandbox.engine()).deploy(
    {
      stateName: stackName,
      stackName,
      region: REGION,
      accountId: '000000000000',
      template: { Resources: resources, Outputs: outputs },
    },
    { concurrency: 4 },
  );
}

const exportOf = (name: string, value: unknown) => ({ Shared: { Value: value, Export: { Name: name } } });
const consumer = (name: string) => ({
  Topic: { Type: 'AWS::SNS::Topic', Properties: { DisplayName: { 'Fn::ImportValue': name } } },
});

describe('an export whose value changes while another stack imports it', () => {
  it('a changed literal is refused before anything is touched, as CloudFormation refuses it', async () => {
    await deploy('LiteralProducer', producer('literal-q'), exportOf('literal-export', 'v1'));
    await deploy('LiteralConsumer', consumer('literal-export'), {});
    const failure = await failureOfRun(
      deploy('LiteralProducer', producer('literal-q2'), exportOf('literal-export', 'v2')),
    );
    expect(failure.codes).toEqual(['EXPORT_IN_USE']);
    expect(failure.message).toContain(
      'Cannot update export literal-export as it is in use by LiteralConsumer',
    );
    const sqs = await sandbox.clients.client(SQSClient, REGION);
    expect(
      (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'literal-q2' }))).QueueUrls ?? [],
    ).toEqual([]);
  });

  it('a value that reads a resource the deploy recreates is refused at planning when its importer does not deploy after it in the run', async () => {
    const exported = { Ref: 'Queue' };
    await deploy('RefProducer', producer('ref-q1'), exportOf('ref-export', exported));
    await deploy('RefConsumer', consumer('ref-export'), {});
    const before = (await sandbox.backend.store.read({ stackName: 'RefProducer', region: REGION }))!.document;
    const failure = await failureOfRun(
      deploy('RefProducer', producer('ref-q2'), exportOf('ref-export', exported)),
    );
    expect(failure.codes).toEqual(['EXPORT_IN_USE']);
    expect(failure.message).toContain('Cannot update export ref-export as it is in use by RefConsumer');
    expect(failure.hint).toContain('cdkd deploy RefProducer RefConsumer (or --all)');
    // Refused before anything was touched: no journal, no new queue.
    expect(await sandbox.backend.journals.read({ stackName: 'RefProducer', region: REGION })).toBeUndefined();
    const after = (await sandbox.backend.store.read({ stackName: 'RefProducer', region: REGION }))!.document;
    expect(after.resources.Queue!.physicalId).toBe(before.resources.Queue!.physicalId);
    expect(after.outputs).toEqual(before.outputs);
    const sqs = await sandbox.clients.client(SQSClient, REGION);
    const queues = (await sqs.send(new ListQueuesCommand({ QueueNamePrefix: 'ref-q' }))).QueueUrls ?? [];
    expect(queues).toEqual([before.resources.Queue!.physicalId]);
  });

  it('an unchanged export value lets the rest of the stack change', async () => {
    await deploy('SameProducer', producer('same-q'), exportOf('same-export', 'v1'));
    await deploy('SameConsumer', consumer('same-export'), {});
    const result = await deploy('SameProducer', producer('same-q2'), exportOf('same-export', 'v1'));
    expect(result.changed).toBe(true);
  });

  it('an export nobody imports may change', async () => {
    await deploy('FreeProducer', producer('free-q'), exportOf('free-export', 'v1'));
    const result = await deploy('FreeProducer', producer('free-q'), exportOf('free-export', 'v2'));
    expect(result.outputs.Shared?.value).toBe('v2');
  });
});
