import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/plan/build-plan.js';
import { movingExports, type DeclaredExport } from '../../src/plan/moving-exports.js';
import type { DesiredResource, PlannedOperation, RecordedResource } from '../../src/plan/types.js';
import { allProviders, desired, recorded } from './helpers.js';

/**
 * Which exports a deploy moves for the stacks importing them, and whether each importer
 * follows in the run: one case per row of the decision.
 */
function planOf(resources: DesiredResource[], records: Record<string, RecordedResource>) {
  return buildPlan({ desired: resources, recorded: records }, allProviders).operations;
}

// A security group whose GroupDescription (create-only) changes: replaced, its id moves.
const sgReplaced = () => {
  const sg = desired('Sg', 'AWS::EC2::SecurityGroup', { GroupDescription: 'two' });
  return {
    desired: [sg],
    operations: planOf([sg], { Sg: recorded('AWS::EC2::SecurityGroup', { GroupDescription: 'one' }) }),
  };
};
const sgUnchanged = () => {
  const sg = desired('Sg', 'AWS::EC2::SecurityGroup', { GroupDescription: 'one' });
  return {
    desired: [sg],
    operations: planOf([sg], { Sg: recorded('AWS::EC2::SecurityGroup', { GroupDescription: 'one' }) }),
  };
};
// A fixed-name SSM parameter recreated by --recreate-via-cc-api: its Ref (the name) is kept.
const fixedNameRecreated = () => {
  const param = desired('Param', 'AWS::SSM::Parameter', { Name: '/fixed', Type: 'String', Value: 'v' });
  const record = recorded('AWS::SSM::Parameter', param.properties, { physicalId: '/fixed' });
  const operations = buildPlan(
    { desired: [param], recorded: { Param: record }, recreateVia: { Param: 'cc-api' } },
    allProviders,
  ).operations;
  return { desired: [param], operations };
};

const exported = (target: string, via: 'ref' | 'getatt' = 'ref'): DeclaredExport => ({
  exportName: 'Exporter:Sg',
  reads: [{ target, via }],
});

interface Row {
  name: string;
  plan: () => { desired: DesiredResource[]; operations: PlannedOperation[] };
  declared: DeclaredExport;
  importers: string[];
  inRun: string[];
  expected: Array<{ targets: string[]; importers: string[]; stranded: string[] }>;
}

const rows: Row[] = [
  {
    name: 'a replaced target whose importer deploys after it: moves, nothing stranded',
    plan: sgReplaced,
    declared: exported('Sg'),
    importers: ['Importer'],
    inRun: ['Importer'],
    expected: [{ targets: ['Sg'], importers: ['Importer'], stranded: [] }],
  },
  {
    name: 'a replaced target whose importer is not in the run: stranded',
    plan: sgReplaced,
    declared: exported('Sg'),
    importers: ['Importer'],
    inRun: [],
    expected: [{ targets: ['Sg'], importers: ['Importer'], stranded: ['Importer'] }],
  },
  {
    name: 'two importers, one in the run: the other is stranded',
    plan: sgReplaced,
    declared: exported('Sg'),
    importers: ['A', 'B'],
    inRun: ['A'],
    expected: [{ targets: ['Sg'], importers: ['A', 'B'], stranded: ['B'] }],
  },
  {
    name: 'an export nobody imports: left out',
    plan: sgReplaced,
    declared: exported('Sg'),
    importers: [],
    inRun: [],
    expected: [],
  },
  {
    name: 'an export of an unchanged resource: left out',
    plan: sgUnchanged,
    declared: exported('Sg'),
    importers: ['Importer'],
    inRun: [],
    expected: [],
  },
  {
    name: 'a Ref of a fixed-name target recreated: its id is kept, left out',
    plan: fixedNameRecreated,
    declared: exported('Param', 'ref'),
    importers: ['Importer'],
    inRun: [],
    expected: [],
  },
  {
    name: 'an attribute of a fixed-name target recreated: moves',
    plan: fixedNameRecreated,
    declared: exported('Param', 'getatt'),
    importers: ['Importer'],
    inRun: ['Importer'],
    expected: [{ targets: ['Param'], importers: ['Importer'], stranded: [] }],
  },
];

describe('exports a recreated target moves (movingExports)', () => {
  it.each(rows)('$name', ({ plan, declared, importers, inRun, expected }) => {
    const { desired: resources, operations } = plan();
    const moving = movingExports([declared], operations, resources, {
      importersOf: () => importers,
      deploysAfter: (importer) => inRun.includes(importer),
    });
    expect(moving).toEqual(expected.map((entry) => ({ exportName: 'Exporter:Sg', ...entry })));
  });
});

describe('readers of an export another stack of the run moves', () => {
  const importReader = (id: string, type: string, property: string, properties: Record<string, unknown>) =>
    desired(id, type, properties, { reads: [{ target: 'Exporter:Sg', property, via: 'import' }] });

  it('follow it: an in-place reader is updated, a create-only one replaced if the id changes, and its own create-only readers in turn', () => {
    const inPlace = importReader('InPlace', 'AWS::SSM::Parameter', 'Value', { Value: 'sg-old' });
    const createOnly = importReader('Named', 'AWS::SSM::Parameter', 'Name', { Name: '/x/sg-old' });
    const chained = desired(
      'Chained',
      'AWS::SSM::Parameter',
      { Name: '/y/x/sg-old' },
      { dependencies: ['Named'], reads: [{ target: 'Named', property: 'Name', via: 'ref' }] },
    );
    const resources = [inPlace, createOnly, chained];
    const records = Object.fromEntries(resources.map((r) => [r.logicalId, recorded(r.type, r.properties)]));
    const ops = new Map(
      buildPlan(
        { desired: resources, recorded: records, movingImports: new Map([['Exporter:Sg', 'Exporter/Sg']]) },
        allProviders,
      ).operations.map((op) => [op.logicalId, op]),
    );
    expect(ops.get('InPlace')).toMatchObject({
      kind: 'update',
      replacedIfIdChanges: false,
      reresolveAfter: ['Exporter/Sg'],
      dependsOn: [],
      reason: 'reads Exporter/Sg through export Exporter:Sg (Value via import), which this run moves first',
    });
    expect(ops.get('Named')).toMatchObject({ kind: 'update', replacedIfIdChanges: true });
    expect(ops.get('Named')!.notes).toContain("replaced if Exporter/Sg's id changes: Name is create-only");
    expect(ops.get('Chained')).toMatchObject({
      kind: 'update',
      replacedIfIdChanges: true,
      reresolveAfter: ['Named'],
    });
  });

  it('leave a reader of an export nobody moves alone', () => {
    const reader = importReader('InPlace', 'AWS::SSM::Parameter', 'Value', { Value: 'sg-old' });
    const [op] = buildPlan(
      {
        desired: [reader],
        recorded: { InPlace: recorded(reader.type, reader.properties) },
        movingImports: new Map([['Other:Export', 'Other/Thing']]),
      },
      allProviders,
    ).operations;
    expect(op).toMatchObject({ kind: 'no-op', reresolveAfter: [] });
  });
});
