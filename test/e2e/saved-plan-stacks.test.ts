import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { synthesizeApp } from '../helpers/cdk-app.js';
import { runCli } from '../helpers/cli.js';
import { stackResources } from '../helpers/inventory.js';
import { sandboxEnv, useSandbox } from '../helpers/sandbox.js';

const sandbox = useSandbox();
const env = () => sandboxEnv(sandbox.current.url);

/** Two independent stacks, each with the queues named. */
function app(first: string[], second: string[]): string {
  return synthesizeApp((cdkApp) => {
    const one = new Stack(cdkApp, 'First');
    for (const id of first) new Queue(one, id);
    const two = new Stack(cdkApp, 'Second');
    for (const id of second) new Queue(two, id);
  });
}

async function recorded(stack: string): Promise<string> {
  return (await runCli(['state', 'show', stack, '--json'], { env: env() })).stdout;
}

describe('a saved plan of several stacks', () => {
  let base: string;
  let grown: string;
  const file = join(tempDir(), 'plan.json');

  beforeAll(async () => {
    base = app(['Queue'], ['Queue']);
    grown = app(['Queue', 'More'], ['Queue', 'More']);
    expect((await runCli(['bootstrap'], { env: env() })).code).toBe(0);
    const first = await runCli(['deploy', '--all', '-a', base], { env: env() });
    expect(first.code, first.stderr).toBe(0);
    const diff = await runCli(['diff', '--all', '-a', grown, '--out', file], { env: env() });
    expect(diff.code, diff.stderr).toBe(0);
  }, 180_000);

  it('refuses a selection other than the stacks the file holds', async () => {
    const refused = await runCli(['deploy', 'First', '-a', grown, '--plan', file], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [SAVED_PLAN_STACKS_MISMATCH]');
    expect(refused.stderr).toContain('in the plan but not selected: Second');
  }, 120_000);

  it('refuses before the first stack deploys when a later one moved', async () => {
    // Only Second moves; First's plan still holds, yet nothing of the run may start.
    expect(
      (await runCli(['deploy', 'Second', '-a', app(['Queue'], ['Queue', 'Other'])], { env: env() })).code,
    ).toBe(0);
    const first = await recorded('First');
    const live = await stackResources(sandbox.current.url);

    const refused = await runCli(['deploy', '--all', '-a', grown, '--plan', file], { env: env() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error [SAVED_PLAN_STALE]');
    expect(refused.stderr).toContain('Second: its state changed since the plan was made');
    expect(refused.stderr).not.toContain('First: ');
    expect(await recorded('First')).toBe(first);
    expect(await stackResources(sandbox.current.url)).toEqual(live);
  }, 180_000);
});
