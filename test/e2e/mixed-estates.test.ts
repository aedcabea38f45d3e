import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CfnOutput, Fn, Stack } from 'aws-cdk-lib';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { settled, ssmParameter, template } from '../sandbox/cloudformation-helpers.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const REGION = 'us-east-1';

/**
 * A CDK app whose stack imports one export of a stack still on CloudFormation and one of a
 * stack cdkd deploys, through the built CLI.
 */
describe('a CDK app in a mixed estate', () => {
  let app: string;

  beforeAll(async () => {
    const cfn = new CloudFormationClient({ region: REGION });
    await cfn.send(
      new CreateStackCommand({
        StackName: 'LegacyNetwork',
        TemplateBody: template(
          { Source: ssmParameter('/legacy/source', 'legacy-value') },
          {
            Outputs: {
              Shared: { Value: { 'Fn::GetAtt': ['Source', 'Value'] }, Export: { Name: 'legacy-shared' } },
            },
          },
        ),
      }),
    );
    expect((await settled(cfn, 'LegacyNetwork')).StackStatus).toBe('CREATE_COMPLETE');
    cfn.destroy();
    app = synthesizeApp((cdkApp) => {
      const producer = new Stack(cdkApp, 'Producer');
      new CfnOutput(producer, 'Own', { value: 'own-value', exportName: 'own-shared' });
      const consumer = new Stack(cdkApp, 'Consumer');
      new StringParameter(consumer, 'FromLegacy', {
        parameterName: '/mixed/from-legacy',
        stringValue: Fn.importValue('legacy-shared'),
      });
      new StringParameter(consumer, 'FromOwn', {
        parameterName: '/mixed/from-own',
        stringValue: Fn.importValue('own-shared'),
      });
    });
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    expect((await runCli(['deploy', 'Producer', '-a', app], { env: env() })).code).toBe(0);
  }, 180_000);

  it('cdkd diff names where each import comes from', async () => {
    const text = await runCli(['diff', 'Consumer', '-a', app], { env: env() });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      'Imports:\n    legacy-shared ← CloudFormation stack LegacyNetwork\n    own-shared ← cdkd stack Producer\n',
    );
    const json = await runCli(['diff', 'Consumer', '-a', app, '--json'], { env: env() });
    expect(JSON.parse(json.stdout).Consumer.imports).toEqual([
      { exportName: 'legacy-shared', side: 'cloudformation', stackName: 'LegacyNetwork' },
      { exportName: 'own-shared', side: 'cdkd', stackName: 'Producer' },
    ]);
  }, 60_000);

  it('cdkd deploy lands the CloudFormation export in the cdkd stack', async () => {
    const deployed = await runCli(['deploy', 'Consumer', '-a', app], { env: env() });
    expect(deployed.stderr).not.toContain('Error');
    expect(deployed.code).toBe(0);
    const ssm = new SSMClient({ region: REGION });
    const value = async (name: string) =>
      (await ssm.send(new GetParameterCommand({ Name: name }))).Parameter?.Value;
    expect(await value('/mixed/from-legacy')).toBe('legacy-value');
    expect(await value('/mixed/from-own')).toBe('own-value');
    ssm.destroy();
  }, 60_000);
});
