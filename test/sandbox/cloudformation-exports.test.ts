import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  ListImportsCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';
import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import {
  eventsOf,
  settled,
  ssmParameter as parameter,
  template,
  useCloudFormation,
} from './cloudformation-helpers.js';
import { failure } from './helpers.js';

const env = useCloudFormation();

/** A producer exporting `shared` (and maybe more) with the given value. */
const producer = (value: string, exports: Record<string, string> = { Shared: 'shared' }) =>
  template(
    { Source: parameter('/exports/source', value) },
    {
      Outputs: Object.fromEntries(
        Object.entries(exports).map(([key, name]) => [
          key,
          { Value: { 'Fn::GetAtt': ['Source', 'Value'] }, Export: { Name: name } },
        ]),
      ),
    },
  );

const lastReason = async (stack: string, logicalId: string, status: string) =>
  (await eventsOf(env.cfn, stack))
    .filter((e) => e.LogicalResourceId === logicalId && e.ResourceStatus === status)
    .at(-1)?.ResourceStatusReason;

describe('exports and imports, with CloudFormation refusals', () => {
  it('an import reads the export; ListExports and ListImports answer', async () => {
    await env.cfn.send(new CreateStackCommand({ StackName: 'producer', TemplateBody: producer('v1') }));
    expect((await settled(env.cfn, 'producer')).StackStatus).toBe('CREATE_COMPLETE');
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'consumer',
        TemplateBody: template({ Copy: parameter('/exports/copy', { 'Fn::ImportValue': 'shared' }) }),
      }),
    );
    expect((await settled(env.cfn, 'consumer')).StackStatus).toBe('CREATE_COMPLETE');
    expect((await env.ssm.send(new GetParameterCommand({ Name: '/exports/copy' }))).Parameter?.Value).toBe(
      'v1',
    );
    const exported = (await env.cfn.send(new ListExportsCommand({}))).Exports;
    const producerId = (await settled(env.cfn, 'producer')).StackId;
    expect(exported).toEqual([{ ExportingStackId: producerId, Name: 'shared', Value: 'v1' }]);
    expect((await env.cfn.send(new ListImportsCommand({ ExportName: 'shared' }))).Imports).toEqual([
      'consumer',
    ]);
  });

  it('ListImports of an export nobody imports is a ValidationError', async () => {
    const refused = await failure(env.cfn.send(new ListImportsCommand({ ExportName: 'nobody' })));
    expect(refused.name).toBe('ValidationError');
    expect(refused.error.message).toBe("Export 'nobody' is not imported by any stack.");
  });

  it('an import of an export that does not exist fails the resource', async () => {
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'orphan-import',
        TemplateBody: template({ Copy: parameter('/exports/orphan', { 'Fn::ImportValue': 'missing' }) }),
      }),
    );
    expect((await settled(env.cfn, 'orphan-import')).StackStatus).toBe('ROLLBACK_COMPLETE');
  });

  it('a second stack exporting the same name is refused, and rolls back', async () => {
    await env.cfn.send(
      new CreateStackCommand({
        StackName: 'duplicate',
        TemplateBody: template(
          { Other: parameter('/exports/other', 'x') },
          { Outputs: { Dup: { Value: 'x', Export: { Name: 'shared' } } } },
        ),
      }),
    );
    expect((await settled(env.cfn, 'duplicate')).StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await lastReason('duplicate', 'duplicate', 'ROLLBACK_IN_PROGRESS')).toBe(
      'Export with name shared is already exported by stack producer. Rollback requested by user.',
    );
  });

  it.each([
    ['changed', producer('v2'), 'Export shared cannot be updated as it is in use by consumer'],
    [
      'removed',
      producer('v1', { Other: 'other' }),
      'Export shared cannot be deleted as it is in use by consumer',
    ],
  ])('an export in use cannot be %s: the update rolls back', async (_, body, reason) => {
    await env.cfn.send(new UpdateStackCommand({ StackName: 'producer', TemplateBody: body }));
    expect((await settled(env.cfn, 'producer')).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(await lastReason('producer', 'producer', 'UPDATE_ROLLBACK_IN_PROGRESS')).toContain(reason);
    expect((await env.ssm.send(new GetParameterCommand({ Name: '/exports/source' }))).Parameter?.Value).toBe(
      'v1',
    );
    const exported = (await env.cfn.send(new ListExportsCommand({}))).Exports;
    expect(exported?.map((e) => [e.Name, e.Value])).toEqual([['shared', 'v1']]);
  });

  it('a stack whose export is in use cannot be deleted; once the importer is gone it can', async () => {
    await env.cfn.send(new DeleteStackCommand({ StackName: 'producer' }));
    const stack = (await env.cfn.send(new DescribeStacksCommand({ StackName: 'producer' }))).Stacks![0]!;
    expect(stack.StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    const events = await eventsOf(env.cfn, 'producer');
    expect(events.at(-1)?.ResourceStatusReason).toBe(
      'Export shared cannot be deleted as it is in use by consumer',
    );

    await env.cfn.send(new DeleteStackCommand({ StackName: 'consumer' }));
    expect((await failure(settled(env.cfn, 'consumer'))).name).toBe('ValidationError');
    await env.cfn.send(new DeleteStackCommand({ StackName: 'producer' }));
    expect((await failure(settled(env.cfn, 'producer'))).name).toBe('ValidationError');
    expect((await env.cfn.send(new ListExportsCommand({}))).Exports).toEqual([]);
  });
});
