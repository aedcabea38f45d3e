import {
  CloudFormationClient,
  CreateStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  type StackResource,
} from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeAssembly, writeJson } from '../assembly/helpers.js';
import { runCli, startCli } from '../helpers/cli.js';
import { liveResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

// The hand-over between the sandbox's CloudFormation and cdkd, on the built CLI:
// `cdkd import --migrate-from-cloudformation` and `cdkd export`, their refusals, and a
// SIGKILL at each step followed by a re-run.
const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);
const cli = (args: string[]) => runCli(args, { env: env() });
let cfn: CloudFormationClient;

beforeAll(async () => {
  cfn = new CloudFormationClient({ endpoint: sandbox.current.url, region: 'us-east-1', maxAttempts: 1 });
  expect((await cli(['bootstrap'])).code).toBe(0);
});
afterAll(() => cfn.destroy());

type Template = { Resources: Record<string, unknown>; Outputs?: Record<string, unknown> };

function app(stackName: string, template: Template): string {
  const dir = tempDir();
  writeAssembly(dir, [{ id: stackName, template }]);
  return dir;
}

/**
 * A bucket and a log group with names of their own, as CloudFormation and cdkd both make them
 * (types whose sandbox Cloud Control handler is the service's own store, so cdkd reads what
 * the sandbox's CloudFormation made).
 */
function pair(prefix: string, extra: Record<string, unknown> = {}): Template {
  return {
    Resources: {
      Data: { Type: 'AWS::S3::Bucket', Properties: { BucketName: `${prefix}-data`, ...extra } },
      Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-jobs` } },
    },
  };
}

async function cfnStatus(stackName: string): Promise<string | undefined> {
  try {
    const stack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
    return stack?.StackStatus === 'DELETE_COMPLETE' ? undefined : stack?.StackStatus;
  } catch {
    return undefined;
  }
}

async function settled(stackName: string): Promise<string | undefined> {
  for (;;) {
    const status = await cfnStatus(stackName);
    if (!status?.endsWith('_IN_PROGRESS') || status === 'REVIEW_IN_PROGRESS') return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function cfnResources(stackName: string): Promise<StackResource[]> {
  if ((await cfnStatus(stackName)) === undefined) return [];
  return (await cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }))).StackResources ?? [];
}

async function createCfnStack(stackName: string, template: Template): Promise<void> {
  await cfn.send(new CreateStackCommand({ StackName: stackName, TemplateBody: JSON.stringify(template) }));
  expect(await settled(stackName)).toBe('CREATE_COMPLETE');
}

async function recorded(stackName: string): Promise<Record<string, { physicalId: string }> | undefined> {
  const shown = await cli(['state', 'show', stackName, '--json']);
  return shown.code === 0 ? JSON.parse(shown.stdout).resources : undefined;
}

/**
 * Each of the stack's logical ids is managed by exactly one side: recorded in cdkd's state
 * or listed by the CloudFormation stack (the export holder's placeholder aside), and the
 * sandbox still holds the resource.
 */
async function managedByOneSide(
  stackName: string,
  logicalIds: readonly string[],
  cfnName = stackName,
): Promise<void> {
  const state = (await recorded(stackName)) ?? {};
  const listed = (await cfnResources(cfnName)).filter((r) => r.LogicalResourceId !== 'CdkdMigratedExports');
  for (const id of logicalIds) {
    const sides = [id in state, listed.some((r) => r.LogicalResourceId === id)].filter(Boolean).length;
    expect(
      sides,
      `${id}: cdkd ${id in state}, CloudFormation ${listed.map((r) => r.LogicalResourceId)}`,
    ).toBe(1);
  }
}

describe('cdkd import --migrate-from-cloudformation', () => {
  it('takes a CloudFormation stack over, after which cdkd deploy updates it', async () => {
    await createCfnStack('Moving', pair('moving'));
    const before = await cfnResources('Moving');
    const dir = app('Moving', pair('moving'));
    const migrated = await cli(['import', 'Moving', '--migrate-from-cloudformation', '-a', dir]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('the CloudFormation stack is deleted, every resource retained');
    expect(await cfnStatus('Moving')).toBeUndefined();
    const state = await recorded('Moving');
    for (const resource of before) {
      expect(state?.[resource.LogicalResourceId!]?.physicalId).toBe(resource.PhysicalResourceId);
    }
    const live = await liveResources(sandbox.current.url);
    expect(live.map((r) => r.id)).toEqual(expect.arrayContaining(['moving-data', 'moving-jobs']));

    const versioned = app('Moving', pair('moving', { VersioningConfiguration: { Status: 'Enabled' } }));
    const updated = await cli(['deploy', '-a', versioned]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toMatch(/Data \(AWS::S3::Bucket\) updated/);
    const again = await cli(['import', 'Moving', '--migrate-from-cloudformation', '-a', versioned]);
    expect(again.code, again.stderr).toBe(0);
    expect((await cli(['destroy', '-a', versioned, '--yes'])).code).toBe(0);
    expect((await liveResources(sandbox.current.url)).map((r) => r.id)).not.toContain('moving-data');
  });

  it('refuses a stack whose export another CloudFormation stack imports, naming it; --force keeps the export', async () => {
    const exporting: Template = {
      ...pair('shared'),
      Outputs: { JobsName: { Value: { Ref: 'Jobs' }, Export: { Name: 'shared-jobs-url' } } },
    };
    await createCfnStack('Sharing', exporting);
    await createCfnStack('Reading', {
      Resources: {
        Reader: {
          Type: 'AWS::SNS::Topic',
          Properties: { DisplayName: { 'Fn::ImportValue': 'shared-jobs-url' } },
        },
      },
    });
    const dir = app('Sharing', exporting);
    const refused = await cli(['import', 'Sharing', '--migrate-from-cloudformation', '-a', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('MIGRATE_EXPORTS_IMPORTED');
    expect(refused.stderr).toContain('shared-jobs-url (imported by Reading)');
    expect(refused.stderr).toContain('--force');
    expect(await cfnStatus('Sharing')).toBe('CREATE_COMPLETE');
    expect(await recorded('Sharing')).toBeUndefined();

    const forced = await cli(['import', 'Sharing', '--migrate-from-cloudformation', '--force', '-a', dir]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('keeps only its exports');
    expect(forced.stdout).toContain('Reading');
    await managedByOneSide('Sharing', ['Data', 'Jobs']);
    expect((await cfnResources('Sharing')).map((r) => r.LogicalResourceId)).toEqual(['CdkdMigratedExports']);
    const exports = (await cfn.send(new ListExportsCommand({}))).Exports ?? [];
    const state = await recorded('Sharing');
    expect(exports.find((e) => e.Name === 'shared-jobs-url')?.Value).toBe(state?.Jobs?.physicalId);
  });

  it.each([
    ['recording', 'recording'],
    ['retaining', 'setting DeletionPolicy Retain'],
    ['deleting', 'deleting the CloudFormation stack'],
  ])('a SIGKILL while %s, then a re-run: every resource on exactly one side', async (step, marker) => {
    const stackName = `Killed${step}`;
    const template = pair(`killed-${step}`);
    await createCfnStack(stackName, template);
    const dir = app(stackName, template);
    const args = ['import', stackName, '--migrate-from-cloudformation', '-a', dir];
    const run = startCli(args, marker, { env: env() });
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    expect(await liveResources(sandbox.current.url)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: `killed-${step}-data` })]),
    );
    await settled(stackName);
    await cli(['force-unlock', stackName, '--yes']);
    const rerun = await cli(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    await managedByOneSide(stackName, ['Data', 'Jobs']);
    expect(await cfnStatus(stackName)).toBeUndefined();
    const ids = (await liveResources(sandbox.current.url)).map((r) => r.id);
    expect(ids).toEqual(
      expect.arrayContaining([`killed-${step}-data`, expect.stringContaining(`killed-${step}-jobs`)]),
    );
  });
});

describe('cdkd export', () => {
  it('hands a cdkd stack to CloudFormation, which lists the same physical ids; cdkd forgets it', async () => {
    const dir = app('Leaving', pair('leaving'));
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);
    const state = await recorded('Leaving');
    const exported = await cli(['export', 'Leaving']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await cfnStatus('Leaving')).toBe('IMPORT_COMPLETE');
    const listed = await cfnResources('Leaving');
    expect(Object.fromEntries(listed.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]))).toEqual({
      Data: state?.Data?.physicalId,
      Jobs: state?.Jobs?.physicalId,
    });
    expect(await recorded('Leaving')).toBeUndefined();
    const again = await cli(['export', 'Leaving']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already exported');
  });

  it('refuses while a rollback journal exists unless confirmed', async () => {
    const group = (name: string) => ({ Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: name } });
    const first = app('Journaled', { Resources: { One: group('journaled-one') } });
    expect((await cli(['deploy', '-a', first])).code).toBe(0);
    await fetch(`${sandbox.current.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        service: 'logs',
        operation: 'CreateLogGroup',
        errorCode: 'InvalidParameterException',
        httpStatus: 400,
        message: 'injected by the test',
        nth: 1,
      }),
    });
    try {
      const second = app('Journaled', {
        Resources: { One: group('journaled-one'), Two: group('journaled-two') },
      });
      const failed = await cli(['deploy', '-a', second, '--no-rollback']);
      expect(failed.code).toBe(1);
    } finally {
      await fetch(`${sandbox.current.url}/_sandbox/faults`, { method: 'DELETE' });
    }
    // No terminal and no --yes: the question is refused as every other question is.
    const refused = await cli(['export', 'Journaled']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Stack Journaled has a rollback journal');
    expect(refused.stderr).toContain('CONFIRMATION_REQUIRED');
    expect(await cfnStatus('Journaled')).toBeUndefined();
    expect(await recorded('Journaled')).toBeDefined();

    const confirmed = await cli(['export', 'Journaled', '--yes']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(await recorded('Journaled')).toBeUndefined();
    expect((await cli(['rollback', 'Journaled', '--yes'])).stdout).toContain('no rollback journal');
  });

  it.each([
    ['change-set', 'creating CloudFormation IMPORT change set'],
    ['execute', 'executing change set'],
    ['forget', "removing cdkd's state"],
  ])('a SIGKILL at %s, then a re-run: every resource on exactly one side', async (step, marker) => {
    const stackName = `Leaving${step.replace('-', '')}`;
    const dir = app(stackName, pair(`leaving-${step}`));
    expect((await cli(['deploy', '-a', dir])).code).toBe(0);
    const run = startCli(['export', stackName], marker, { env: env() });
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    await settled(stackName);
    await cli(['force-unlock', stackName, '--yes']);
    const rerun = await cli(['export', stackName]);
    expect(rerun.code, rerun.stderr).toBe(0);
    await managedByOneSide(stackName, ['Data', 'Jobs']);
    expect(await recorded(stackName)).toBeUndefined();
  });
});

describe('cdkd import --migrate-from-cloudformation of a stack with a nested stack', () => {
  const s3 = () =>
    new S3Client({
      endpoint: sandbox.current.url,
      region: 'us-east-1',
      forcePathStyle: true,
      maxAttempts: 1,
    });
  const templates = 'handover-nested-templates';

  /** The child's bucket and log group, named from the parameter its parent passes. */
  const child = (extra: Record<string, unknown> = {}): Template =>
    ({
      Parameters: { Prefix: { Type: 'String' } },
      Resources: {
        Data: {
          Type: 'AWS::S3::Bucket',
          Properties: { BucketName: { 'Fn::Sub': '${Prefix}-data' }, ...extra },
        },
        Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: { 'Fn::Sub': '${Prefix}-jobs' } } },
      },
    }) as Template;

  /** The parent: a log group of its own and the nested stack, its template on the sandbox's S3 (as CDK publishes it). */
  async function parent(prefix: string, childTemplate: Template): Promise<Template> {
    const client = s3();
    try {
      await client.send(new CreateBucketCommand({ Bucket: templates })).catch(() => undefined);
      const key = `${prefix}/${Buffer.from(JSON.stringify(childTemplate)).toString('base64url').slice(-16)}.json`;
      await client.send(
        new PutObjectCommand({ Bucket: templates, Key: key, Body: JSON.stringify(childTemplate) }),
      );
      return {
        Resources: {
          Top: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-top` } },
          Child: {
            Type: 'AWS::CloudFormation::Stack',
            Properties: {
              TemplateURL: `https://s3.us-east-1.amazonaws.com/${templates}/${key}`,
              Parameters: { Prefix: `${prefix}-child` },
            },
            Metadata: { 'aws:asset:path': 'child.nested.template.json' },
          },
        },
      };
    } finally {
      client.destroy();
    }
  }

  function nestedApp(stackName: string, parentTemplate: Template, childTemplate: Template): string {
    const dir = app(stackName, parentTemplate);
    writeJson(join(dir, 'child.nested.template.json'), childTemplate);
    return dir;
  }

  async function childStackId(stackName: string): Promise<string> {
    const row = (await cfnResources(stackName)).find((r) => r.LogicalResourceId === 'Child');
    expect(row?.PhysicalResourceId).toBeDefined();
    return row!.PhysicalResourceId!;
  }

  it('records parent and child as a cdkd deploy would, deletes both from CloudFormation, and deploys after', async () => {
    const template = await parent('nesting', child());
    await createCfnStack('Nesting', template);
    const childId = await childStackId('Nesting');
    const before = [...(await cfnResources('Nesting')), ...(await cfnResources(childId))];
    const liveBefore = await liveResources(sandbox.current.url);
    const dir = nestedApp('Nesting', template, child());

    const migrated = await cli(['import', 'Nesting', '--migrate-from-cloudformation', '-a', dir]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('recorded Child/Data (AWS::S3::Bucket) nesting-child-data');
    expect(await cfnStatus('Nesting')).toBeUndefined();
    expect(await cfnStatus(childId)).toBeUndefined();
    const top = await recorded('Nesting');
    const nested = await recorded('Nesting/Child');
    expect(top?.Top?.physicalId).toBe(before.find((r) => r.LogicalResourceId === 'Top')?.PhysicalResourceId);
    expect(top?.Child?.physicalId).toMatch(/:stack\/Nesting-Child\//);
    for (const id of ['Data', 'Jobs']) {
      const cfnRow = before.find((r) => r.LogicalResourceId === id && r.StackId === childId);
      expect(nested?.[id]?.physicalId).toBe(cfnRow?.PhysicalResourceId);
    }
    // Nothing was made or lost: the sandbox holds what it held (the CloudFormation stacks aside).
    const stacksAside = (list: Awaited<ReturnType<typeof liveResources>>) =>
      list.filter((r) => r.type !== 'AWS::CloudFormation::Stack');
    expect(stacksAside(await liveResources(sandbox.current.url))).toEqual(stacksAside(liveBefore));

    const versioned = nestedApp(
      'Nesting',
      template,
      child({ VersioningConfiguration: { Status: 'Enabled' } }),
    );
    const updated = await cli(['deploy', '-a', versioned]);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stderr).toMatch(/Data \(AWS::S3::Bucket\) updated/);
    expect((await recorded('Nesting/Child'))?.Data?.physicalId).toBe('nesting-child-data');
    const again = await cli(['import', 'Nesting', '--migrate-from-cloudformation', '-a', versioned]);
    expect(again.code, again.stderr).toBe(0);
    expect((await cli(['destroy', '-a', versioned, '--yes'])).code).toBe(0);
    const left = (await liveResources(sandbox.current.url)).map((r) => r.id);
    expect(left).not.toContain('nesting-child-data');
    expect(left).not.toContain('nesting-top');
  });

  it.each([
    ['recording the child', 'recording', 1],
    ['recording the parent', 'recording', 2],
    ['retaining', 'setting DeletionPolicy Retain', 1],
    ['deleting', 'deleting the CloudFormation stack', 1],
  ])(
    'a SIGKILL while %s, then a re-run: every resource on exactly one side',
    async (_step, marker, times) => {
      const prefix = `knest-${marker.split(' ')[0]}-${times}`;
      const stackName = `KilledNested${marker.split(' ')[0]}${times}`;
      const template = await parent(prefix, child());
      await createCfnStack(stackName, template);
      const childId = await childStackId(stackName);
      const dir = nestedApp(stackName, template, child());
      const args = ['import', stackName, '--migrate-from-cloudformation', '-a', dir];
      const run = startCli(args, marker, { env: env(), times });
      await run.creating;
      run.child.kill('SIGKILL');
      await run.done;
      await settled(stackName);
      await cli(['force-unlock', stackName, '--yes']);
      await cli(['force-unlock', `${stackName}/Child`, '--yes']);
      const rerun = await cli(args);
      expect(rerun.code, rerun.stderr).toBe(0);
      await managedByOneSide(stackName, ['Top', 'Child'], stackName);
      await managedByOneSide(`${stackName}/Child`, ['Data', 'Jobs'], childId);
      expect(await cfnStatus(stackName)).toBeUndefined();
      expect(await cfnStatus(childId)).toBeUndefined();
      const ids = (await liveResources(sandbox.current.url)).map((r) => r.id);
      expect(ids).toEqual(
        expect.arrayContaining([`${prefix}-child-data`, expect.stringContaining(`${prefix}-child-jobs`)]),
      );
    },
  );
});

describe('cdkd export of a stack with a nested stack', () => {
  const childTemplate: Template = {
    Resources: {
      Data: { Type: 'AWS::S3::Bucket', Properties: { BucketName: { 'Fn::Sub': '${Prefix}-data' } } },
      Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: { 'Fn::Sub': '${Prefix}-jobs' } } },
    },
  };
  (childTemplate as Record<string, unknown>).Parameters = { Prefix: { Type: 'String' } };

  /** A cdkd stack with a log group and a nested stack holding a bucket and a log group. */
  async function deployNested(stackName: string, prefix: string): Promise<void> {
    const dir = app(stackName, {
      Resources: {
        Top: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-top` } },
        Child: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: {
            TemplateURL: 'https://example.invalid/child.json',
            Parameters: { Prefix: `${prefix}-child` },
          },
          Metadata: { 'aws:asset:path': 'child.nested.template.json' },
        },
      },
    });
    writeJson(join(dir, 'child.nested.template.json'), childTemplate);
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
  }

  /** The parent's and the child's CloudFormation stacks hold every resource cdkd held, the child nested. */
  async function handedOver(
    stackName: string,
    state: Record<string, { physicalId: string }>,
    child: Record<string, { physicalId: string }>,
  ) {
    expect(await cfnStatus(stackName)).toBe('IMPORT_COMPLETE');
    const parentStack = (await cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0]!;
    const listed = Object.fromEntries(
      (await cfnResources(stackName)).map((r) => [r.LogicalResourceId, r.PhysicalResourceId]),
    );
    expect(Object.keys(listed).sort()).toEqual(['Child', 'Top']);
    expect(listed.Top).toBe(state.Top?.physicalId);
    const nested = (await cfn.send(new DescribeStacksCommand({ StackName: listed.Child! }))).Stacks![0]!;
    expect(nested.StackName).toBe(`${stackName}-Child`);
    expect(nested.ParentId).toBe(parentStack.StackId);
    expect(nested.RootId).toBe(parentStack.StackId);
    const childListed = await cfnResources(listed.Child!);
    expect(Object.fromEntries(childListed.map((r) => [r.LogicalResourceId, r.PhysicalResourceId]))).toEqual({
      Data: child.Data?.physicalId,
      Jobs: child.Jobs?.physicalId,
    });
    expect(await recorded(stackName)).toBeUndefined();
    expect(await recorded(`${stackName}/Child`)).toBeUndefined();
  }

  it('hands the child to CloudFormation as a stack nested in the imported parent; cdkd forgets both', async () => {
    await deployNested('LeavingNested', 'leaving-nested');
    const state = (await recorded('LeavingNested'))!;
    const child = (await recorded('LeavingNested/Child'))!;
    const liveBefore = await liveResources(sandbox.current.url);
    const exported = await cli(['export', 'LeavingNested']);
    expect(exported.code, exported.stderr).toBe(0);
    await handedOver('LeavingNested', state, child);
    expect(
      (await liveResources(sandbox.current.url)).filter((r) => r.type !== 'AWS::CloudFormation::Stack'),
    ).toEqual(liveBefore.filter((r) => r.type !== 'AWS::CloudFormation::Stack'));
    const again = await cli(['export', 'LeavingNested']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already exported');
  });

  it('refuses a nested stack with nested stacks of its own before anything changes, naming why', async () => {
    const dir = app('DeepNested', {
      Resources: {
        Child: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: { TemplateURL: 'https://example.invalid/child.json' },
          Metadata: { 'aws:asset:path': 'child.nested.template.json' },
        },
      },
    });
    writeJson(join(dir, 'child.nested.template.json'), {
      Resources: {
        Grand: {
          Type: 'AWS::CloudFormation::Stack',
          Properties: { TemplateURL: 'https://example.invalid/grand.json' },
          Metadata: { 'aws:asset:path': 'grand.nested.template.json' },
        },
      },
    });
    writeJson(join(dir, 'grand.nested.template.json'), {
      Resources: { Jobs: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: 'deep-nested-jobs' } } },
    });
    const deployed = await cli(['deploy', '-a', dir]);
    expect(deployed.code, deployed.stderr).toBe(0);
    const refused = await cli(['export', 'DeepNested']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('EXPORT_NOT_IMPORTABLE');
    expect(refused.stderr).toContain('CloudFormation imports nested stacks one level deep only');
    expect(await cfnStatus('DeepNested')).toBeUndefined();
    expect(await cfnStatus('DeepNested-Child')).toBeUndefined();
    expect(await recorded('DeepNested')).toBeDefined();
    expect((await recorded('DeepNested/Child/Grand'))?.Jobs).toBeDefined();
  });

  it.each([
    ["the child's change set", 'creating CloudFormation IMPORT change set', 1],
    ["the parent's change set", 'creating CloudFormation IMPORT change set', 2],
    ["the parent's execution", 'executing change set', 2],
    ['forgetting', "removing cdkd's state", 1],
  ])('a SIGKILL at %s, then a re-run: every resource on exactly one side', async (_step, marker, times) => {
    const stackName = `LeavingNested${marker.split(' ')[0]!.replace(/\W/g, '')}${times}`;
    await deployNested(stackName, `lnest-${marker.split(' ')[0]!.replace(/\W/g, '')}-${times}`.toLowerCase());
    const state = (await recorded(stackName))!;
    const child = (await recorded(`${stackName}/Child`))!;
    const run = startCli(['export', stackName], marker, { env: env(), times });
    await run.creating;
    run.child.kill('SIGKILL');
    await run.done;
    await settled(stackName);
    await settled(`${stackName}-Child`);
    await cli(['force-unlock', stackName, '--yes']);
    await cli(['force-unlock', `${stackName}/Child`, '--yes']);
    const rerun = await cli(['export', stackName]);
    expect(rerun.code, rerun.stderr).toBe(0);
    await handedOver(stackName, state, child);
  });
});
