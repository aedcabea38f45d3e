import { describe, expect, it } from 'vitest';
import { ExportIndex } from '../../src/engine/export-index.js';

const index = ExportIndex.from([
  {
    stackName: 'Producer',
    outputs: {
      Plain: { value: 'v1', exportName: 'plain' },
      Listed: { value: ['a', 'b'], exportName: 'listed' },
      Unused: { value: 'u1', exportName: 'unused' },
    },
    imports: ['self-read'],
  },
  { stackName: 'Consumer', outputs: {}, imports: ['plain', 'listed'] },
  { stackName: 'Other', outputs: {}, imports: ['plain'] },
]);

describe('an export whose value changes while imported (CloudFormation: Cannot update export)', () => {
  it.each<[string, Array<[string, unknown]>, string[]]>([
    ['an unchanged value passes', [['plain', 'v1']], []],
    [
      'a changed value is refused, naming every importing stack',
      [['plain', 'v2']],
      ['Cannot update export plain as it is in use by Consumer, Other'],
    ],
    ['an equal list passes', [['listed', ['a', 'b']]], []],
    [
      'a reordered list is a change',
      [['listed', ['b', 'a']]],
      ['Cannot update export listed as it is in use by Consumer'],
    ],
    ['an export nobody imports may change', [['unused', 'u2']], []],
    ['a new export has nothing to compare with', [['fresh', 'x']], []],
  ])('%s', (_row, values, expected) => {
    expect(index.changedWhileImported('Producer', new Map(values))).toEqual(expected);
  });

  it("another stack's export of the same name is not this stack's to change", () => {
    expect(index.changedWhileImported('Consumer', new Map([['plain', 'v2']]))).toEqual([]);
  });
});
