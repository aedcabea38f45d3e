import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runSchedule, type ScheduleOutcome } from '../test/chaos/run-schedule.js';
import { describeStep, scheduleFor } from '../test/chaos/schedule.js';

/**
 * `npm run chaos -- --schedules N [--seed S]`: runs N randomized fault-and-kill schedules
 * (seeds S, S+1, ...) through the built CLI, each on a sandbox of its own, and prints every
 * schedule, its outcome and a summary. A failing schedule is replayed with `--seed S --schedules 1`.
 */
const { values } = parseArgs({
  options: {
    schedules: { type: 'string', default: '10' },
    seed: { type: 'string' },
  },
});
const count = Number(values.schedules);
const first = values.seed === undefined ? Math.floor(Math.random() * 1_000_000) : Number(values.seed);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(first) || first < 0) {
  process.stderr.write('Usage: npm run chaos -- --schedules N [--seed S] (N >= 1, S a whole number)\n');
  process.exit(1);
}
if (!existsSync(fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)))) {
  process.stderr.write('The built CLI is missing: run npm run build first.\n');
  process.exit(1);
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const failed: ScheduleOutcome[] = [];
const started = Date.now();
for (let seed = first; seed < first + count; seed += 1) {
  const schedule = scheduleFor(seed);
  process.stdout.write(`\nschedule seed ${seed}:\n`);
  for (const step of schedule.steps) process.stdout.write(`  - ${describeStep(step)}\n`);
  const outcome = await runSchedule(schedule);
  for (const line of outcome.steps) process.stdout.write(`  ${line.what}: ${line.result}\n`);
  for (const line of outcome.recovery) process.stdout.write(`  recovery ${line.what}: ${line.result}\n`);
  process.stdout.write(outcome.failure ? `  FAILED: ${outcome.failure}\n` : '  passed\n');
  if (outcome.failure) failed.push(outcome);
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
process.stdout.write(
  `\n${count - failed.length} of ${count} schedules passed (seeds ${first}-${first + count - 1}, ${minutes} min).\n`,
);
for (const outcome of failed) {
  process.stdout.write(
    `  seed ${outcome.seed}: ${outcome.failure} (replay: npm run chaos -- --seed ${outcome.seed} --schedules 1)\n`,
  );
}
process.exitCode = failed.length > 0 ? 1 : 0;
