import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take much longer than the rest, longest first: the two corpus passes (one
 * CPU each for about two and a half minutes), then the files that spawn the built CLI.
 * They start first so the short files fill the other worker around them and the run does
 * not end on one long file. Without this, a fresh checkout (no results cache in
 * node_modules/.vite) would order files by size, and the corpus files are small.
 */
const LONG_FIRST = [
  'test/corpus/deploy-sdk.test.ts',
  'test/corpus/deploy-cc.test.ts',
  'test/e2e/rollback.test.ts',
  'test/e2e/deploy-lifecycle.test.ts',
  'test/e2e/real-apps.test.ts',
  'test/cli/bootstrap-and-state.test.ts',
  'test/assembly/cli.test.ts',
  'test/e2e/example-app.test.ts',
  'test/e2e/custom-resources.test.ts',
  'test/e2e/context-lookups.test.ts',
  'test/cli/events.test.ts',
  'test/sandbox/cli.test.ts',
  'test/state/lock.test.ts',
];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
      return index < 0 ? LONG_FIRST.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Sized for a loaded 2-core machine: at a load average of 16 an end-to-end test that
    // spawns the built CLI a few times took 10-40 s (3-5x its idle time), and a hook that
    // synthesizes a CDK app longer; 60 s timed 23 of them out under the whole suite.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // CDKD_VERIFY_CACHED_JSON: every state and journal save is checked against a fresh
    // JSON.stringify, so code that changes a record after its text was cached fails its test.
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CDKD_VERIFY_CACHED_JSON: 'true' },
    // Vitest's default is CPUs - 1 workers: on a 2-CPU machine, one, so every file ran in
    // series. The work is CPU-bound (the sandbox runs in the worker), so one per CPU.
    maxWorkers: Math.max(2, availableParallelism()),
    minWorkers: 1,
    pool: 'forks',
    poolOptions: {
      // Files share their worker's process: the AWS SDK and the sources load once per
      // worker instead of once per file (that loading was most of a short file's time).
      // test/helpers/fresh-env.ts gives each file the worker's starting environment.
      forks: { isolate: false },
    },
    setupFiles: ['test/helpers/fresh-env.ts'],
    sequence: { sequencer: LongFirstSequencer },
  },
});
