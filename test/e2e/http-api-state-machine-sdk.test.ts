import { DescribeExecutionCommand, SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { CfnOutput, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { beforeAll, describe, expect, it } from 'vitest';
import { AwsClients } from '../../src/aws/client-factory.js';
import { inlineFunction, synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// An HTTP API (HttpApi, a Lambda route, the default auto-deployed stage) and a state machine
// invoking a Lambda task, as a CDK user writes them, deployed by cdkd through the SDK
// providers: the API answers through execute-api, an execution succeeds, a second deploy
// changes nothing, an update reaches both, and destroy leaves nothing.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const STACK = 'HttpFlowE2E';
const SDK_TYPES = [
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::Route',
  'AWS::ApiGatewayV2::Integration',
  'AWS::ApiGatewayV2::Stage',
  'AWS::StepFunctions::StateMachine',
];

function app(version: string): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const handler = inlineFunction(
      stack,
      'Handler',
      `exports.handler = async (event) => ({ statusCode: 200, body: JSON.stringify({ version: '${version}', path: event.rawPath, input: event.value ?? null }) });`,
    );
    const api = new apigwv2.HttpApi(stack, 'Api');
    api.addRoutes({
      path: `/${version}`,
      methods: [apigwv2.HttpMethod.GET],
      integration: new HttpLambdaIntegration('Integration', handler),
    });
    const machine = new sfn.StateMachine(stack, 'Flow', {
      definitionBody: sfn.DefinitionBody.fromChainable(
        new tasks.LambdaInvoke(stack, 'Invoke', { lambdaFunction: handler, payloadResponseOnly: true }).next(
          new sfn.Pass(stack, `Done-${version}`),
        ),
      ),
    });
    new CfnOutput(stack, 'ApiId', { value: api.apiId });
    new CfnOutput(stack, 'MachineArn', { value: machine.stateMachineArn });
  });
}

interface Recorded {
  type: string;
  provisionedBy: string;
  physicalId: string;
}

async function recorded(): Promise<Record<string, Recorded>> {
  const shown = await cli(['state', 'show', STACK, '--json']);
  return JSON.parse(shown.stdout).resources as Record<string, Recorded>;
}

async function execute(stateMachineArn: string, input: unknown) {
  const client = await new AwsClients().client(SFNClient, 'us-east-1');
  const { executionArn } = await client.send(
    new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input) }),
  );
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const execution = await client.send(new DescribeExecutionCommand({ executionArn }));
    if (execution.status !== 'RUNNING') return execution;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${executionArn} did not end`);
}

const output = (stdout: string, name: string) => new RegExp(`\\.${name} = (\\S+)`).exec(stdout)![1]!;
const call = (apiId: string, path: string) =>
  fetch(`${sandbox.current.url}/restapis/${apiId}/$default/_user_request_${path}`);

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('an HTTP API and a state machine through the SDK providers', () => {
  it('deploy, answer, run, redeploy as a no-op, update and destroy leaving nothing', async () => {
    const deployed = await cli(['deploy', '-a', app('v1')]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const apiId = output(deployed.stdout, 'ApiId');
    const machineArn = output(deployed.stdout, 'MachineArn');
    const resources = await recorded();
    const ours = Object.values(resources).filter((resource) => SDK_TYPES.includes(resource.type));
    expect(ours.map((resource) => resource.type).sort()).toEqual([...SDK_TYPES].sort());
    expect(ours.every((resource) => resource.provisionedBy === 'sdk')).toBe(true);

    const answer = await call(apiId, '/v1');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ version: 'v1', path: '/v1' });
    const execution = await execute(machineArn, { value: 7 });
    expect(execution.status, execution.cause).toBe('SUCCEEDED');
    expect(JSON.parse(execution.output!)).toMatchObject({ statusCode: 200 });

    const again = await cli(['deploy', '-a', app('v1')]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/(created|updated|replaced|deleted)/);

    const updated = await cli(['deploy', '-a', app('v2')]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(output(updated.stdout, 'ApiId')).toBe(apiId);
    expect(output(updated.stdout, 'MachineArn')).toBe(machineArn);
    expect(await (await call(apiId, '/v2')).json()).toMatchObject({ version: 'v2', path: '/v2' });
    expect((await call(apiId, '/v1')).status).toBe(404);
    const second = await execute(machineArn, {});
    expect(second.status, second.cause).toBe('SUCCEEDED');
    expect(JSON.parse(second.output!).body).toContain('"version":"v2"');

    const destroyed = await cli(['destroy', '-a', app('v2'), '--yes']);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    // Neither the function's log group nor the executions' history is a resource the deploy
    // made (AWS leaves the one and ages the other out after the machine).
    const left = await stackResources(sandbox.current.url);
    expect(left.filter((resource) => resource.type !== 'AWS::StepFunctions::Execution')).toEqual([]);
    expect((await call(apiId, '/v2')).status).toBe(404);
  }, 300_000);
});
