import { CreateResourceCommand } from '@aws-sdk/client-cloudcontrol';
import {
  CreateStateMachineCommand,
  DeleteStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  DescribeStateMachineForExecutionCommand,
  ListStateMachinesCommand,
  ListTagsForResourceCommand,
  SFNClient,
  StartExecutionCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, failure, settle } from './helpers.js';
import { ACCOUNT, ROLE, clientConfig } from './lambda-runtime-helpers.js';

// Step Functions' state-machine calls on the machines Cloud Control keeps: what a deploy made is
// what the API lists, and what the API made is what executions run.
let sandbox: Sandbox;
let sfn: SFNClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, accountId: ACCOUNT });
  sfn = new SFNClient(clientConfig(sandbox));
});
afterAll(async () => {
  sfn.destroy();
  await sandbox.stop();
});

const pass = (result: unknown) =>
  JSON.stringify({ StartAt: 'Only', States: { Only: { Type: 'Pass', Result: result, End: true } } });

async function executionOutput(stateMachineArn: string): Promise<string | undefined> {
  const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn }));
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const execution = await sfn.send(new DescribeExecutionCommand({ executionArn }));
    if (execution.status !== 'RUNNING') return execution.output;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${executionArn} did not end`);
}

describe('Step Functions state machines', () => {
  it('are created, described, updated (executions run the new definition) and deleted', async () => {
    const created = await sfn.send(
      new CreateStateMachineCommand({ name: 'orders', definition: pass('v1'), roleArn: ROLE }),
    );
    expect(created.stateMachineArn).toBe(`arn:aws:states:us-east-1:${ACCOUNT}:stateMachine:orders`);
    const arn = created.stateMachineArn!;
    const described = await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
    expect(described).toMatchObject({
      name: 'orders',
      status: 'ACTIVE',
      definition: pass('v1'),
      roleArn: ROLE,
      type: 'STANDARD',
      loggingConfiguration: { level: 'OFF', includeExecutionData: false },
      tracingConfiguration: { enabled: false },
    });
    expect(described.creationDate!.getTime()).toBe(created.creationDate!.getTime());
    expect(await executionOutput(arn)).toBe('"v1"');

    await sfn.send(
      new UpdateStateMachineCommand({
        stateMachineArn: arn,
        definition: pass('v2'),
        tracingConfiguration: { enabled: true },
      }),
    );
    expect(await sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn }))).toMatchObject({
      definition: pass('v2'),
      tracingConfiguration: { enabled: true },
    });
    const { executionArn } = await sfn.send(new StartExecutionCommand({ stateMachineArn: arn }));
    const forExecution = await sfn.send(new DescribeStateMachineForExecutionCommand({ executionArn }));
    expect(forExecution).toMatchObject({ stateMachineArn: arn, name: 'orders', definition: pass('v2') });
    expect(await executionOutput(arn)).toBe('"v2"');

    await sfn.send(new DeleteStateMachineCommand({ stateMachineArn: arn }));
    expect((await failure(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn })))).name).toBe(
      'StateMachineDoesNotExist',
    );
    await sfn.send(new DeleteStateMachineCommand({ stateMachineArn: arn }));
  });

  it('a create repeated with the same definition answers the machine; another definition is refused', async () => {
    const first = await sfn.send(
      new CreateStateMachineCommand({ name: 'twice', definition: pass(1), roleArn: ROLE }),
    );
    const again = await sfn.send(
      new CreateStateMachineCommand({ name: 'twice', definition: pass(1), roleArn: `${ROLE}-other` }),
    );
    expect(again.stateMachineArn).toBe(first.stateMachineArn);
    const clash = await failure(
      sfn.send(new CreateStateMachineCommand({ name: 'twice', definition: pass(2), roleArn: ROLE })),
    );
    expect(clash).toMatchObject({ name: 'StateMachineAlreadyExists', status: 400 });
  });

  it('refuses bad names, definitions, ARNs and empty updates with the errors AWS gives', async () => {
    const refusal = async (promise: Promise<unknown>) => (await failure(promise)).name;
    expect(
      await refusal(
        sfn.send(new CreateStateMachineCommand({ name: 'a b', definition: pass(1), roleArn: ROLE })),
      ),
    ).toBe('InvalidName');
    expect(
      await refusal(sfn.send(new CreateStateMachineCommand({ name: 'bad', definition: '{', roleArn: ROLE }))),
    ).toBe('InvalidDefinition');
    expect(
      await refusal(
        sfn.send(
          new CreateStateMachineCommand({
            name: 'bad',
            definition: JSON.stringify({ StartAt: 'Nowhere', States: {} }),
            roleArn: ROLE,
          }),
        ),
      ),
    ).toBe('InvalidDefinition');
    expect(await refusal(sfn.send(new DescribeStateMachineCommand({ stateMachineArn: 'not-an-arn' })))).toBe(
      'InvalidArn',
    );
    const { stateMachineArn } = await sfn.send(
      new CreateStateMachineCommand({ name: 'unchanged', definition: pass(1), roleArn: ROLE }),
    );
    expect(await refusal(sfn.send(new UpdateStateMachineCommand({ stateMachineArn })))).toBe(
      'MissingRequiredParameter',
    );
  });

  it('tags are added, overwritten and removed; an unknown machine has none to list', async () => {
    const { stateMachineArn: resourceArn } = await sfn.send(
      new CreateStateMachineCommand({
        name: 'tagged',
        definition: pass(1),
        roleArn: ROLE,
        tags: [{ key: 'team', value: 'a' }],
      }),
    );
    await sfn.send(
      new TagResourceCommand({
        resourceArn,
        tags: [
          { key: 'team', value: 'b' },
          { key: 'cost', value: '1' },
        ],
      }),
    );
    await sfn.send(new UntagResourceCommand({ resourceArn, tagKeys: ['cost'] }));
    expect((await sfn.send(new ListTagsForResourceCommand({ resourceArn }))).tags).toEqual([
      { key: 'team', value: 'b' },
    ]);
    const missing = await failure(
      sfn.send(new ListTagsForResourceCommand({ resourceArn: `${resourceArn!}-gone` })),
    );
    expect(missing.name).toBe('ResourceNotFound');
  });

  it('lists the machines a deploy made through Cloud Control with those the API made, by page, per account', async () => {
    const cc = cloudControlClient(sandbox);
    const { ProgressEvent } = await cc.send(
      new CreateResourceCommand({
        TypeName: 'AWS::StepFunctions::StateMachine',
        DesiredState: JSON.stringify({
          StateMachineName: 'deployed',
          RoleArn: ROLE,
          DefinitionString: pass(1),
        }),
      }),
    );
    const { event } = await settle(cc, ProgressEvent!);
    cc.destroy();
    const names: string[] = [];
    let nextToken: string | undefined;
    do {
      const listed = await sfn.send(new ListStateMachinesCommand({ maxResults: 1, nextToken }));
      expect(listed.stateMachines).toHaveLength(1);
      names.push(...listed.stateMachines!.map((machine) => machine.name!));
      nextToken = listed.nextToken;
    } while (nextToken !== undefined);
    expect(names).toContain('deployed');
    expect(names).toContain('twice');
    expect(await executionOutput(event.Identifier!)).toBe('1');

    expect((await failure(sfn.send(new ListStateMachinesCommand({ nextToken: 'forged' })))).name).toBe(
      'InvalidToken',
    );
    const other = new SFNClient({
      ...clientConfig(sandbox),
      credentials: { accessKeyId: '222222222222', secretAccessKey: 'x' },
    });
    expect((await other.send(new ListStateMachinesCommand({}))).stateMachines).toEqual([]);
    other.destroy();
  });
});
