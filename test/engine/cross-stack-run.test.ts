import { describe, expect, it } from 'vitest';
import { CrossStackRun } from '../../src/engine/deploy/cross-stack-run.js';
import { importReaderRows, noteImportReaders } from '../../src/engine/planning/import-readers.js';
import type { MovingExport, PlannedOperation } from '../../src/plan/index.js';
import { collectImports, rootPath } from '../../src/template/index.js';

const importer = {
  Resources: {
    InPlace: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Type: 'String', Value: { 'Fn::ImportValue': 'Exporter:Sg' } },
    },
    Named: {
      Type: 'AWS::SSM::Parameter',
      Properties: { Name: { 'Fn::Join': ['', ['/x/', { 'Fn::ImportValue': 'Exporter:Sg' }]] }, Value: 'v' },
    },
    Table: {
      Type: 'AWS::DynamoDB::Table',
      UpdateReplacePolicy: 'Retain',
      Properties: { TableName: { 'Fn::Sub': ['t-${Id}', { Id: { 'Fn::ImportValue': 'Exporter:Sg' } }] } },
    },
    Other: { Type: 'AWS::SSM::Parameter', Properties: { Value: { 'Fn::ImportValue': 'Exporter:Other' } } },
  },
};

const run = () =>
  new CrossStackRun(
    new Map([
      ['Exporter', new Set<string>()],
      ['Importer', new Set(['Exporter'])],
    ]),
    new Map([['Importer', importer]]),
  );

const moving: MovingExport = {
  exportName: 'Exporter:Sg',
  targets: ['Sg'],
  importers: ['Importer'],
  stranded: [],
};

describe('CrossStackRun', () => {
  it('knows which stack deploys after which', () => {
    expect(run().deploysAfter('Importer', 'Exporter')).toBe(true);
    expect(run().deploysAfter('Exporter', 'Importer')).toBe(false);
    expect(run().deploysAfter('Elsewhere', 'Exporter')).toBe(false);
  });

  it('hands an importer the exports moved before it, until the exporter has deployed', () => {
    const shared = run();
    shared.announce('Exporter', [moving]);
    expect(shared.movingImports('Importer')).toEqual(new Map([['Exporter:Sg', 'Exporter/Sg']]));
    expect(shared.movingImports('Exporter')).toEqual(new Map());
    shared.moved('Exporter');
    expect(shared.movingImports('Importer')).toEqual(new Map());
  });

  it('finds the readers of an export in the importers templates, create-only or not', () => {
    expect(run().readersOf('Exporter:Sg', ['Importer'])).toEqual([
      { stack: 'Importer', logicalId: 'InPlace', type: 'AWS::SSM::Parameter', createOnly: false },
      { stack: 'Importer', logicalId: 'Named', type: 'AWS::SSM::Parameter', createOnly: true },
      {
        stack: 'Importer',
        logicalId: 'Table',
        type: 'AWS::DynamoDB::Table',
        createOnly: true,
        updateReplacePolicy: 'Retain',
      },
    ]);
  });

  it('collects the stacks an exporter holds old copies for', () => {
    const shared = run();
    const request = {
      stateName: 'Exporter',
      stackName: 'Exporter',
      region: 'r',
      accountId: 'a',
      template: {},
    };
    shared.hold(request, ['Importer']);
    shared.hold(request, ['Importer', 'Second']);
    expect(shared.held()).toEqual([{ request, importers: ['Importer', 'Second'] }]);
  });
});

describe('the exporter plan and prompt list the readers in other stacks', () => {
  const sgOp: PlannedOperation = {
    logicalId: 'Sg',
    kind: 'replace',
    type: 'AWS::EC2::SecurityGroup',
    reason: 'changed: GroupDescription',
    changedProperties: ['GroupDescription'],
    replacementCauses: [],
    notes: [],
    dependsOn: [],
    phase: 'deploy',
    reresolveAfter: [],
    replacedIfIdChanges: false,
  };

  it('notes them on the target, marks it imported, and rows its create-only ones with their data outcome', () => {
    const plan = { operations: [sgOp] };
    const readers = noteImportReaders(plan, [moving], run());
    expect(plan.operations[0]).toMatchObject({
      importedBy: ['Importer'],
      notes: [
        'exported as Exporter:Sg, read in other stacks by Importer/InPlace (updated), Importer/Named (replaced if the id changes), Importer/Table (replaced if the id changes): they follow when their stacks deploy, after this one, and any old copy is kept until they have',
      ],
    });
    expect(importReaderRows(readers, false)).toEqual([
      {
        logicalId: 'Importer/Named',
        type: 'AWS::SSM::Parameter',
        outcome: 'allowed',
        readerOf: ['Sg'],
        reason: 'replaced if the id of Sg changes (reads export Exporter:Sg)',
      },
      expect.objectContaining({ logicalId: 'Importer/Table', outcome: 'retained' }),
    ]);
  });
});

describe('collectImports', () => {
  it('finds literal Fn::ImportValue names, skipping an Fn::If branch not taken', () => {
    const value = {
      A: { 'Fn::ImportValue': 'one' },
      B: { 'Fn::If': ['On', { 'Fn::ImportValue': 'taken' }, { 'Fn::ImportValue': 'untaken' }] },
      C: { 'Fn::ImportValue': { 'Fn::Sub': 'computed-${AWS::Region}' } },
    };
    const names = collectImports(
      value,
      rootPath('Resources', 'R', 'Properties'),
      (name) => name === 'On',
    ).map((read) => read.name);
    expect(names).toEqual(['one', 'taken']);
  });
});
