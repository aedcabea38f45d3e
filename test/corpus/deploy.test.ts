import { describe, expect, it } from 'vitest';
import { isCustomResourceType } from '../../src/providers/handled-types.js';
import { useSandbox } from '../helpers/sandbox.js';
import { assetKeys, corpusApps, ssmParametersRead, type CorpusApp } from './corpus-apps.js';
import {
  hasCustomResources,
  openHarness,
  refusedTypes,
  seedSsmParameters,
  stubAssets,
  STATE_BUCKET,
  resourceKey,
  runApp,
  type Outcome,
} from './deploy-harness.js';
import exclusions from './deploy-exclusions.json' with { type: 'json' };

/** Templates the sandbox cannot host, each with its reason: `{ "file": "reason" }`. */
const excluded = new Map(Object.entries(exclusions as Record<string, string>));

/** Apps deployed at once; each stack's DAG walk is itself concurrent. */
const PARALLEL_APPS = 6;

const sandbox = useSandbox();

async function runAll(
  apps: readonly CorpusApp[],
  parallel: number,
  run: (app: CorpusApp, n: number) => Promise<Map<string, Outcome>>,
) {
  const outcomes = new Map<string, Outcome>();
  // Biggest apps first, so the tail of the run is short.
  const queue = apps
    .map((app, n) => ({ app, n, size: app.stacks.reduce((sum, s) => sum + s.types.size, 0) }))
    .sort((a, b) => b.size - a.size);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      for (const [file, outcome] of await run(next.app, next.n)) outcomes.set(file, outcome);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return outcomes;
}

describe('CDK integration-test corpus, deployed to the sandbox', () => {
  it('deploys and destroys every template the sandbox can host, leaving nothing behind', async () => {
    const started = Date.now();
    const cpuStarted = process.cpuUsage();
    const apps = corpusApps();
    const stacks = apps.flatMap((app) => app.stacks);
    expect(stacks.length).toBeGreaterThan(1000);
    const regions = [...new Set(stacks.map((s) => s.region))].sort();
    const harness = await openHarness(sandbox.current.url, regions);
    await seedSsmParameters(harness.clients, ssmParametersRead(apps), regions);
    await stubAssets(harness.clients, assetKeys(apps), regions);
    const baseline = await harness.inventory();

    const outcomes = await runAll(apps, PARALLEL_APPS, (app, n) => runApp(harness, app, n));
    // Apps that run at once can collide (the same explicit physical name or export name in
    // two integ tests): an app with a failure is run again on its own, and that run counts.
    const firstPass = Date.now() - started;
    const retried = apps.filter((app) => app.stacks.some((s) => outcomes.get(s.file)?.kind === 'failed'));
    for (const [file, outcome] of await runAll(retried, 1, (app, n) => runApp(harness, app, apps.length + n)))
      outcomes.set(file, outcome);

    const deployed: string[] = [];
    const refused: string[] = [];
    const failures: string[] = [];
    const unexpectedPasses: string[] = [];
    for (const stack of stacks) {
      const outcome = outcomes.get(stack.file)!;
      const isExcluded = excluded.has(stack.file);
      if (outcome.kind === 'refused') {
        const types = refusedTypes(outcome.message);
        if (hasCustomResources(stack) && types.every(isCustomResourceType)) refused.push(stack.file);
        else if (!isExcluded) failures.push(`${stack.file}: ${outcome.message}`);
      } else if (outcome.kind === 'deployed') {
        if (isExcluded) unexpectedPasses.push(stack.file);
        else if (hasCustomResources(stack)) failures.push(`${stack.file}: custom resources were not refused`);
        else deployed.push(stack.file);
      } else if (!isExcluded) failures.push(`${stack.file}: ${outcome.message}`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const cpu = process.cpuUsage(cpuStarted);
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    console.log(
      `corpus deploy: first pass ${(firstPass / 1000).toFixed(1)} s, ${retried.length} apps run again alone`,
    );
    console.log(
      `corpus deploy: ${deployed.length} deployed and destroyed, ${refused.length} refused (custom resources), ${excluded.size} excluded (${seconds} s, ${cpuSeconds} s CPU)`,
    );
    expect(failures).toEqual([]);
    // An exclusion that now deploys must be removed from deploy-exclusions.json.
    expect(unexpectedPasses).toEqual([]);
    expect([...excluded.keys()].filter((f) => !stacks.some((s) => s.file === f))).toEqual([]);

    // Nothing is left in the sandbox but the state bucket (and what the test seeded).
    const leftovers = [...(await harness.inventory())].filter(
      (key) => !baseline.has(key) && key !== resourceKey('AWS::S3::Bucket', STATE_BUCKET),
    );
    expect(leftovers).toEqual([]);
    expect(await harness.backend.store.list()).toEqual([]);
  }, 900_000);
});
