import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';
import { buildDriftApp, buildWideApp } from '../fixtures/drift-app/app.js';

// `cdkd drift` right after a deploy finds nothing: write-only properties (a function's Code,
// a secret's GenerateSecretString) are not compared, and reads return the false and 0 values
// the template sets. An out-of-band change is still found.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
const config = () => ({ endpoint: sandbox.current.url, region: 'us-east-1' });

type Records = Record<string, { type: string; physicalId: string; provisionedBy: string }>;

async function recorded(stack: string): Promise<Records> {
  const shown = await cli(['state', 'show', stack, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  return JSON.parse(shown.stdout).resources as Records;
}

function idOf(records: Records, type: string): string {
  const found = Object.values(records).filter((record) => record.type === type);
  expect(found).toHaveLength(1);
  return found[0]!.physicalId;
}

/** What `cdkd drift --json` reports, as `type property` lines (the values make long messages). */
async function driftLines(stack: string): Promise<string[]> {
  const seen = await cli(['drift', stack, '--json']);
  expect(seen.code, seen.stderr).toBe(0);
  const drifted = JSON.parse(seen.stdout).drifted as Array<{
    type: string;
    missing: boolean;
    properties: Array<{ property: string; live: unknown }>;
  }>;
  return drifted
    .flatMap(({ type, missing, properties }) =>
      missing
        ? [`${type} missing`]
        : properties.map((p) => `${type} ${p.property}=${JSON.stringify(p.live)}`),
    )
    .sort();
}

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
});

describe('cdkd drift right after a deploy', () => {
  it('reports no drift on a new user app, then the out-of-band changes made to it', async () => {
    const assembly = synthesizeApp((app) => buildDriftApp(app, 'Pipeline'));
    const deployed = await cli(['deploy', 'Pipeline', '-a', assembly]);
    expect(deployed.code, deployed.stderr).toBe(0);

    expect(await driftLines('Pipeline')).toEqual([]);
    expect((await cli(['drift', 'Pipeline', '--fail'])).code).toBe(0);

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
    expect(await driftLines('Pipeline')).toEqual([
      'AWS::SQS::Queue VisibilityTimeout=90',
      'AWS::SSM::Parameter Value="v3"',
    ]);
    expect((await cli(['drift', 'Pipeline', '--fail'])).code).toBe(1);
  });

  it('reports no drift on many more types, one function routed through Cloud Control', async () => {
    const layerDir = tempDir();
    writeFileSync(join(layerDir, 'shared.py'), 'VALUE = 1\n');
    const assembly = synthesizeApp((app) => buildWideApp(app, 'Wide', layerDir));
    const deployed = await cli(['deploy', 'Wide', '-a', assembly]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const records = await recorded('Wide');
    // The traced function's RuntimeManagementConfig has no SDK route: its drift reads the registry's write-only list.
    expect(
      Object.values(records)
        .filter((record) => record.type === 'AWS::Lambda::Function')
        .map((record) => record.provisionedBy),
    ).toContain('cc-api');

    expect(await driftLines('Wide')).toEqual([]);
  });
});
