import { describe, expect, it } from 'vitest';
import { stackNameOfId } from '../../src/aws/cloudformation-exports.js';
import { ExportIndex, type CloudFormationExportSource } from '../../src/engine/export-index.js';
import { importedNames, ownExportChanges } from '../../src/engine/planning/cloudformation-exports.js';
import { pendingValue } from '../../src/engine/planning/state-resolver.js';

/** A CloudFormation side that counts its ListExports / ListImports calls. */
function cloudFormation(
  exports: Array<{ name: string; value: string; stackName: string }>,
  importers: Record<string, string[]> = {},
) {
  const calls = { exports: 0, imports: 0 };
  const source: CloudFormationExportSource = {
    exports: () => {
      calls.exports += 1;
      return Promise.resolve(exports);
    },
    importers: (name) => {
      calls.imports += 1;
      return Promise.resolve(importers[name] ?? []);
    },
  };
  return { source, calls };
}

const cdkd = () =>
  ExportIndex.from([
    { stackName: 'OwnStack', outputs: { Out: { value: 'own', exportName: 'own' } }, imports: [] },
  ]);

describe('the export names a template imports', () => {
  it.each<[string, unknown, string[], boolean]>([
    ['none', { Resources: { A: { Properties: { V: 'x' } } } }, [], false],
    [
      'literal names, in resources and outputs',
      {
        Resources: {
          A: { Properties: { V: { 'Fn::ImportValue': 'one' }, L: [{ 'Fn::ImportValue': 'two' }] } },
        },
        Outputs: { O: { Value: { 'Fn::ImportValue': 'three' } } },
      },
      ['one', 'two', 'three'],
      false,
    ],
    [
      'a computed name is dynamic',
      { Resources: { A: { Properties: { V: { 'Fn::ImportValue': { 'Fn::Sub': '${Env}-x' } } } } } },
      [],
      true,
    ],
  ])('%s', (_case, template, names, dynamic) => {
    const found = importedNames(template);
    expect([...found.names]).toEqual(names);
    expect(found.dynamic).toBe(dynamic);
  });
});

describe('which of its recorded exports a deploy removes or changes', () => {
  const recorded = {
    Kept: { value: 'k', exportName: 'kept' },
    Moved: { value: 'm1', exportName: 'moved' },
    Gone: { value: 'g', exportName: 'gone' },
    Later: { value: 'l', exportName: 'later' },
    List: { value: ['a', 'b'], exportName: 'list' },
    NotExported: { value: 'n' },
  };
  it('removed, changed, known after deploy; unchanged and unexported outputs are left out', () => {
    const planned = new Map<string, unknown>([
      ['kept', 'k'],
      ['moved', 'm2'],
      ['later', pendingValue('Queue', 'Arn')],
      ['list', ['a', 'b']],
      ['brand-new', 'x'],
    ]);
    expect(Object.fromEntries(ownExportChanges(recorded, planned))).toEqual({
      moved: 'changed',
      gone: 'removed',
      later: 'changed',
    });
  });
});

describe('the export index with CloudFormation behind it', () => {
  it('reads ListExports only when a name is not a cdkd export, or is computed, and then once', async () => {
    const side = cloudFormation([{ name: 'cfn', value: 'c', stackName: 'CfnStack' }]);
    const index = cdkd().readingFrom(side.source);
    await index.readCloudFormationFor(['own'], false);
    expect(side.calls.exports).toBe(0);
    expect(index.value('cfn')).toBeUndefined();
    await index.readCloudFormationFor(['own'], true);
    await index.readCloudFormationFor(['cfn'], false);
    expect(side.calls.exports).toBe(1);
    expect(index.value('cfn')).toBe('c');
    expect(index.sourceOf('cfn')).toEqual({ side: 'cloudformation', stackName: 'CfnStack' });
    expect(index.sourceOf('own')).toEqual({ side: 'cdkd', stackName: 'OwnStack' });
  });

  it('a name both sides export is ambiguous, once CloudFormation was read', async () => {
    const side = cloudFormation([{ name: 'own', value: 'other', stackName: 'CfnStack' }]);
    const index = cdkd().readingFrom(side.source);
    expect(index.ambiguous(['own'])).toEqual([]);
    await index.readCloudFormation();
    expect(index.ambiguous(['own', 'own', 'missing'])).toEqual([
      { name: 'own', cdkdStack: 'OwnStack', cloudFormationStack: 'CfnStack' },
    ]);
  });

  it('asks ListImports once per name, and not at all without a CloudFormation side', async () => {
    const side = cloudFormation([], { own: ['Importer'] });
    const index = cdkd().readingFrom(side.source);
    expect(await index.cloudFormationImporters('own')).toEqual(['Importer']);
    expect(await index.cloudFormationImporters('own')).toEqual(['Importer']);
    expect(side.calls.imports).toBe(1);
    expect(await cdkd().cloudFormationImporters('own')).toEqual([]);
  });
});

describe("a stack's name from its id", () => {
  it.each([
    [
      'arn:aws:cloudformation:us-east-1:123456789012:stack/My-Stack/0b6c5b10-1111-2222-3333-444455556666',
      'My-Stack',
    ],
    ['NotAnArn', 'NotAnArn'],
  ])('%s', (id, name) => expect(stackNameOfId(id)).toBe(name));
});
