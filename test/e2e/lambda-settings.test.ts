import { GetFunctionConfigurationCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { Size, Stack } from 'aws-cdk-lib';
import { Code, Function, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// A new user's aws-cdk-lib function with its own log group, JSON logs, X-Ray tracing and a
// larger /tmp: it deploys on the SDK route, reads back without drift, and an update that
// drops tracing and the log settings sets Lambda's defaults.
const sandbox = useSandbox();
const cli = (args: string[]) => runCli(args, { env: sandboxEnv(sandbox.current.url) });
const STACK = 'LambdaSettings';
const FUNCTION_NAME = 'e2e-settings-fn';

function app(settings: boolean): string {
  return synthesizeApp((cdkApp) => {
    const stack = new Stack(cdkApp, STACK);
    const logGroup = new LogGroup(stack, 'Logs', { logGroupName: '/app/e2e-settings' });
    new Function(stack, 'Handler', {
      functionName: FUNCTION_NAME,
      runtime: Runtime.NODEJS_20_X,
      handler: 'index.handler',
      code: Code.fromInline('exports.handler = async () => "ok";'),
      ...(settings
        ? {
            logGroup,
            loggingFormat: LoggingFormat.JSON,
            tracing: Tracing.ACTIVE,
            ephemeralStorageSize: Size.mebibytes(1024),
          }
        : {}),
    });
  });
}

interface FunctionRecord {
  type: string;
  provisionedBy: string;
  properties: Record<string, unknown>;
}

async function functionRecord(): Promise<FunctionRecord> {
  const shown = await cli(['state', 'show', STACK, '--json']);
  expect(shown.code, shown.stderr).toBe(0);
  const resources = Object.values(JSON.parse(shown.stdout).resources as Record<string, FunctionRecord>);
  return resources.find((resource) => resource.type === 'AWS::Lambda::Function')!;
}

let lambda: LambdaClient;
const live = () => lambda.send(new GetFunctionConfigurationCommand({ FunctionName: FUNCTION_NAME }));

beforeAll(async () => {
  expect((await cli(['bootstrap'])).code).toBe(0);
  lambda = new LambdaClient({ endpoint: sandbox.current.url, region: 'us-east-1' });
});
afterAll(() => lambda.destroy());

describe('a CDK function with LoggingConfig, TracingConfig and EphemeralStorage', () => {
  it('deploys through the SDK provider, shows no Cloud Control route, and drops settings to defaults', async () => {
    const withSettings = app(true);
    const planned = await cli(['diff', STACK, '-a', withSettings]);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stdout).toContain('AWS::Lambda::Function');
    expect(planned.stdout).not.toContain('[via CC API');

    const deployed = await cli(['deploy', STACK, '-a', withSettings]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const record = await functionRecord();
    expect(record.provisionedBy).toBe('sdk');
    expect(record.properties.LoggingConfig).toEqual({ LogFormat: 'JSON', LogGroup: '/app/e2e-settings' });
    expect(await live()).toMatchObject({
      TracingConfig: { Mode: 'Active' },
      EphemeralStorage: { Size: 1024 },
      LoggingConfig: { LogFormat: 'JSON', LogGroup: '/app/e2e-settings', SystemLogLevel: 'INFO' },
    });
    // The read-back of a partly set LoggingConfig matches what was applied: no drift in the settings.
    const drift = await cli(['drift', STACK, '--json']);
    expect(drift.code, drift.stderr).toBe(0);
    const drifted = (JSON.parse(drift.stdout).drifted as Array<{ properties: Array<{ property: string }> }>)
      .flatMap((resource) => resource.properties)
      .map((entry) => entry.property);
    for (const setting of ['LoggingConfig', 'TracingConfig', 'EphemeralStorage'])
      expect(drifted).not.toContain(setting);

    const again = await cli(['diff', STACK, '-a', withSettings]);
    expect(again.stdout).not.toContain('[via CC API');

    const plain = app(false);
    const dropped = await cli(['deploy', STACK, '-a', plain]);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect((await functionRecord()).provisionedBy).toBe('sdk');
    const after = await live();
    expect(after).toMatchObject({
      TracingConfig: { Mode: 'PassThrough' },
      EphemeralStorage: { Size: 512 },
      LoggingConfig: { LogFormat: 'Text', LogGroup: `/aws/lambda/${FUNCTION_NAME}` },
    });
    expect(after.LoggingConfig!.ApplicationLogLevel).toBeUndefined();
  });
});
