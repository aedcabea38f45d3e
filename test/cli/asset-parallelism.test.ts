import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { assetParallelism, positiveInteger } from '../../src/cli/options/deploy-options.js';

// The flags as deploy declares them, parsed by commander, then taken as the deploy takes them.
function parse(argv: string[]): { assetParallelism?: number } {
  const command = new Command()
    .exitOverride()
    .option('--asset-parallelism [n]', '', positiveInteger)
    .option('--no-asset-parallelism', '');
  command.parse(argv, { from: 'user' });
  return assetParallelism(command.opts<{ assetParallelism?: number | boolean }>().assetParallelism);
}

describe('--asset-parallelism', () => {
  it.each([
    ['absent: the default', [], {}],
    ['bare, as the CDK CLI spells it: the default', ['--asset-parallelism'], {}],
    ['a count', ['--asset-parallelism', '8'], { assetParallelism: 8 }],
    ['--no-asset-parallelism: one at a time', ['--no-asset-parallelism'], { assetParallelism: 1 }],
  ])('%s', (_name, argv, expected) => {
    expect(parse(argv)).toEqual(expected);
  });

  it('refuses a count below one', () => {
    expect(() => parse(['--asset-parallelism', '0'])).toThrow(/at least 1/);
  });
});
