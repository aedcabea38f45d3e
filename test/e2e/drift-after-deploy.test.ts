import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { buildDriftApp } from '../fixtures/drift-app/app.js';

// `cdkd drift` right after a deploy finds nothing: write-only properties (a function's Code,
// a secret's GenerateSecretString) are not compared, and reads return the false and 0 values
// the template sets. An out-of-band change is still found.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const config = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });

async function recorded(stack: string) {
  const shown = await cli(['state', 'show', stack, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout).resources as Record<string, { type: string; physicalId: string }>;
}

function idOf(records: Awaited<ReturnType<typeof recorded>>, type: string): string {
  const found = Object.values(records).filter((record) => record.type === type);
  expect(found).toHaveLength(1);
  return found[0]!.physicalId;
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd drift right after a deploy', () => {
  it('reports no drift on a many-typed app, then the out-of-band changes made to it', async () => {
    const assembly = synthesizeApp((app) => buildDriftApp(app, 'Pipeline'));
    const deployed = await cli(['deploy', 'Pipeline', '-a', assembly]);
    expect(deployed.code, deployed.stderr).toBe(0);

    const clean = await cli(['drift', 'Pipeline', '--fail']);
    expect(clean.stdout + clean.stderr).not.toMatch(/applied/);
    expect(clean.code, clean.stdout).toBe(0);

    const records = await recorded('Pipeline');
    await new SSMClient(config()).send(
      new PutParameterCommand({ Name: idOf(records, 'AWS::SSM::Parameter'), Value: 'v3', Overwrite: true }),
    );
    await new SQSClient(config()).send(
      new SetQueueAttributesCommand({
        QueueUrl: idOf(records, 'AWS::SQS::Queue'),
        Attributes: { VisibilityTimeout: '90' },
      }),
    );
    const seen = await cli(['drift', 'Pipeline', '--json']);
    expect(seen.code, seen.stderr).toBe(0);
    const drifted = JSON.parse(seen.stdout).drifted as Array<{
      type: string;
      properties: Array<{ property: string; live: unknown }>;
    }>;
    expect(
      drifted.map(({ type, properties }) => [type, properties.map((p) => `${p.property}=${p.live}`)]),
    ).toEqual([
      ['AWS::SQS::Queue', ['VisibilityTimeout=90']],
      ['AWS::SSM::Parameter', ['Value=v3']],
    ]);
  });
});
