import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nestedRow, writeJson } from '../assembly/helpers.js';
import { startCli } from '../helpers/cli.js';
import { useHandover, type Template } from '../helpers/cloudformation-handover.js';
import { liveResources } from '../helpers/inventory.js';

// Nested stacks in the hand-over between the sandbox's CloudFormation and cdkd, on the built
// CLI: migrate and export of a stack with a nested stack, a SIGKILL at each step and a re-run.
const {
  sandbox,
  env,
  cli,
  cfn,
  app,
  cfnStatus,
  settled,
  cfnResources,
  createCfnStack,
  recorded,
  managedByOneSide,
} = useHandover();

/** A nested stack's bucket and log group, named from the parameter its parent passes. */
const nestedChild = (extra: Record<string, unknown> = {}): Template =>
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

/** The app: the parent's template, its nested stack's template beside it. */
function nestedApp(stackName: string, parentTemplate: Template, childTemplate: Template): string {
  const dir = app(stackName, parentTemplate);
  writeJson(join(dir, 'child.nested.template.json'), childTemplate);
  return dir;
}

describe('cdkd import --migrate-from-cloudformation of a stack with a nested stack', () => {
  const s3 = () =>
    new S3Client({
      endpoint: sandbox.current.url,
      region: 'us-east-1',
      forcePathStyle: true,
      maxAttempts: 1,
    });
  const templates = 'handover-nested-templates';

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

  async function childStackId(stackName: string): Promise<string> {
    const row = (await cfnResources(stackName)).find((r) => r.LogicalResourceId === 'Child');
    expect(row?.PhysicalResourceId).toBeDefined();
    return row!.PhysicalResourceId!;
  }

  it('records parent and child as a cdkd deploy would, deletes both from CloudFormation, and deploys after', async () => {
    const template = await parent('nesting', nestedChild());
    await createCfnStack('Nesting', template);
    const childId = await childStackId('Nesting');
    const before = [...(await cfnResources('Nesting')), ...(await cfnResources(childId))];
    const liveBefore = await liveResources(sandbox.current.url);
    const dir = nestedApp('Nesting', template, nestedChild());

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
      nestedChild({ VersioningConfiguration: { Status: 'Enabled' } }),
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

  it('refuses, even with --force, a tree whose nested stack exports what another stack imports', async () => {
    const exporting = {
      ...nestedChild(),
      Outputs: { DataName: { Value: { Ref: 'Data' }, Export: { Name: 'nested-export-data' } } },
    } as Template;
    const template = await parent('nexport', exporting);
    await createCfnStack('NestedExporter', template);
    await createCfnStack('NestedImporter', {
      Resources: {
        Copy: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Type: 'String', Value: { 'Fn::ImportValue': 'nested-export-data' } },
        },
      },
    } as Template);
    const dir = nestedApp('NestedExporter', template, exporting);
    for (const extra of [[], ['--force']]) {
      const refused = await cli([
        'import',
        'NestedExporter',
        '--migrate-from-cloudformation',
        '-a',
        dir,
        ...extra,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('MIGRATE_EXPORTS_IMPORTED');
      expect(refused.stderr).toContain('nested-export-data (imported by NestedImporter)');
    }
    expect(await recorded('NestedExporter')).toBeUndefined();
    expect(await cfnStatus('NestedExporter')).toBe('CREATE_COMPLETE');
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
      const template = await parent(prefix, nestedChild());
      await createCfnStack(stackName, template);
      const childId = await childStackId(stackName);
      const dir = nestedApp(stackName, template, nestedChild());
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
  /** A cdkd stack with a log group and a nested stack holding a bucket and a log group. */
  async function deployNested(stackName: string, prefix: string): Promise<void> {
    const row = nestedRow('child.nested.template.json');
    const parentTemplate = {
      Resources: {
        Top: { Type: 'AWS::Logs::LogGroup', Properties: { LogGroupName: `${prefix}-top` } },
        Child: { ...row, Properties: { ...row.Properties, Parameters: { Prefix: `${prefix}-child` } } },
      },
    };
    const dir = nestedApp(stackName, parentTemplate, nestedChild());
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
    const parentStack = (await cfn().send(new DescribeStacksCommand({ StackName: stackName }))).Stacks![0]!;
    const listed = Object.fromEntries(
      (await cfnResources(stackName)).map((r) => [r.LogicalResourceId, r.PhysicalResourceId]),
    );
    expect(Object.keys(listed).sort()).toEqual(['Child', 'Top']);
    expect(listed.Top).toBe(state.Top?.physicalId);
    const nested = (await cfn().send(new DescribeStacksCommand({ StackName: listed.Child! }))).Stacks![0]!;
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
        Child: nestedRow('child.nested.template.json'),
      },
    });
    writeJson(join(dir, 'child.nested.template.json'), {
      Resources: { Grand: nestedRow('grand.nested.template.json') },
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
