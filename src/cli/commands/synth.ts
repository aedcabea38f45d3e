import type { Command } from 'commander';
import { addAppOptions, synthesizeFor, type AppOptions } from '../options/app-options.js';

interface SynthOptions extends AppOptions {
  strict?: boolean;
  all?: boolean;
  quiet?: boolean;
}

export function registerSynth(program: Command): void {
  addAppOptions(
    program
      .command('synth')
      .alias('synthesize')
      .description('run the CDK app, check its cloud assembly and print the selected stacks')
      .argument('[stacks...]', 'stack names, display paths (Stage/Stack) or wildcards; default: every stack'),
  )
    .option('--strict', 'refuse the assembly when the app reported warnings')
    .option('--all', 'select every stack of the root assembly')
    .option(
      '-e, --exclusively',
      "only the named stacks (as the CDK CLI's -e): cdkd's synth never adds their dependencies",
    )
    .option('-q, --quiet', "do not print a single selected stack's template")
    .action(async (patterns: string[], options: SynthOptions, command: Command) => {
      const {
        checkAssembly,
        collectAnnotations,
        enforceAnnotations,
        formatAnnotation,
        selectStacks,
        summarizeAnnotations,
      } = await import('../../assembly/index.js');
      const { stackSummary } = await import('../render/render-stacks.js');
      const assembly = await synthesizeFor(command, options);
      const stacks = selectStacks(assembly, {
        patterns,
        all: options.all ?? false,
        defaultSelection: 'all',
        extend: 'none',
      });
      const annotations = collectAnnotations(stacks);
      for (const annotation of annotations) process.stderr.write(`${formatAnnotation(annotation)}\n`);
      enforceAnnotations(annotations, { strict: options.strict ?? false });
      const checked = checkAssembly(assembly, stacks);
      for (const warning of checked.warnings) process.stderr.write(`Warning: ${warning}\n`);

      // Like `cdk synth`: one selected stack prints its template on stdout, so the
      // summary moves to stderr and `cdkd synth Stack > template.yaml` works.
      const printTemplate = stacks.length === 1 && !options.quiet;
      const summary = printTemplate ? process.stderr : process.stdout;
      summary.write(`Synthesized to ${assembly.directory}\n`);
      for (const { stack, nested } of checked.stacks) summary.write(`${stackSummary(stack, nested)}\n`);
      summary.write(`Annotations: ${summarizeAnnotations(annotations)}\n`);
      if (printTemplate && stacks[0]) {
        const { stringify } = await import('yaml');
        process.stdout.write(stringify(stacks[0].template, { lineWidth: 0, version: '1.1' }));
      }
    });
}
