import type { Command } from 'commander';

/** The CDK CLI's deploy flags that name a CloudFormation mechanism cdkd has no use for. */
export interface HabitDeployFlags {
  method?: string;
  hotswap?: boolean;
  hotswapFallback?: boolean;
}

export function addHabitDeployFlags(command: Command): Command {
  return command
    .option(
      '--method <method>',
      "the CDK CLI's deployment method (direct, change-set, prepare-change-set): accepted and ignored",
    )
    .option('--hotswap', 'accepted: cdkd deploys every change through the service APIs already')
    .option('--hotswap-fallback', 'accepted: cdkd deploys every change through the service APIs already');
}

/** One line per habit flag given, saying what cdkd does instead. */
export function habitNotes(flags: HabitDeployFlags): string[] {
  const notes: string[] = [];
  if (flags.method !== undefined) {
    notes.push(
      `--method ${flags.method} is ignored: cdkd makes no change set; each change goes straight to the service's API.`,
    );
  }
  const hotswap = [flags.hotswap && '--hotswap', flags.hotswapFallback && '--hotswap-fallback'].filter(
    Boolean,
  );
  if (hotswap.length > 0) {
    notes.push(
      `${hotswap.join(' and ')}: cdkd needs no hotswap; this is an ordinary cdkd deploy, journaled and rolled back on failure.`,
    );
  }
  return notes;
}
