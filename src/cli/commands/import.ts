import type { Command } from 'commander';
import { CdkdError } from '../../errors.js';
import { addAppOptions, collect, synthesizeFor, type AppOptions } from '../options/app-options.js';
import { globalOptions } from '../options/global-options.js';
import { cliIoHost } from '../prompts/io-host.js';
import { interruptible } from '../interrupts/interrupts.js';
import { sessionFor } from '../options/session-from-options.js';

interface ImportOptions extends AppOptions {
  resource: string[];
  resourceMapping?: string;
  resourceMappingInline?: string;
  recordResourceMapping?: string;
  force?: boolean;
  migrateFromCloudformation?: boolean;
}

export function registerImport(program: Command): void {
  const command = program
    .command('import')
    .description('adopt existing AWS resources as resources of a stack, without changing them')
    .argument('<stack>', 'the stack to import into');
  addAppOptions(command)
    .option(
      '--resource <logicalId=physicalId>',
      'the resource to adopt under a template logical id (repeatable); default: offer each one the template names',
      collect,
      [],
    )
    .option(
      '--resource-mapping <file>',
      'the resources to adopt, as the CDK CLI\'s mapping file: { "<logicalId>": { "<identifier property>": "<value>" } }',
    )
    .option('--resource-mapping-inline <json>', 'the same mapping, given as JSON on the command line')
    .option(
      '--record-resource-mapping <file>',
      'write the resources chosen (asked, or given by --resource) as a mapping file, and import nothing',
    )
    .option(
      '--force',
      "adopt a resource another cdkd stack already manages: both stacks then manage it, and destroying either deletes it (cdkd's own buckets are refused regardless); with --migrate-from-cloudformation: take over a stack whose exports other CloudFormation stacks import, leaving it in CloudFormation holding only those exports at their current values",
    )
    .option(
      '--migrate-from-cloudformation',
      "take over the CloudFormation stack of this name: record all its resources in the app's stack, then delete the CloudFormation stack with every resource retained",
    )
    .action(async (stack: string, options: ImportOptions, cmd: Command) => {
      if (options.migrateFromCloudformation) {
        await migrate(stack, options, cmd);
        return;
      }
      const { importResources, mappingConflict } = await import('../../toolkit/import/import-resources.js');
      const { readResourceMapping } = await import('../../toolkit/import/import-mapping.js');
      if (options.resourceMapping !== undefined && options.resourceMappingInline !== undefined)
        throw mappingConflict();
      const mapping =
        options.resourceMapping !== undefined
          ? readResourceMapping({ file: options.resourceMapping })
          : options.resourceMappingInline !== undefined
            ? readResourceMapping({ inline: options.resourceMappingInline })
            : undefined;
      const yes = globalOptions(cmd).yes ?? false;
      const assembly = await synthesizeFor(cmd, options);
      const session = sessionFor(cmd);
      const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
      const result = await interruptible('import', { session, warn }, (signal) =>
        importResources({
          session,
          assembly,
          stack,
          resources: options.resource,
          ...(mapping ? { mapping } : {}),
          ...(options.recordResourceMapping !== undefined
            ? { recordMappingTo: options.recordResourceMapping }
            : {}),
          force: options.force ?? false,
          io: cliIoHost({ yes, warn }),
          command: 'import',
          signal,
        }),
      );
      if (result.recorded) {
        const ids = Object.keys(result.recorded);
        process.stdout.write(
          `${result.stackName}: wrote ${ids.length === 0 ? 'an empty mapping' : `the mapping of ${ids.join(', ')}`} to ${options.recordResourceMapping}; nothing imported. Import with --resource-mapping ${options.recordResourceMapping}.\n`,
        );
        return;
      }
      if (result.imported.length === 0) {
        process.stdout.write(
          result.nothingFound
            ? `${result.stackName}: no template resource names one AWS holds; nothing imported. Name one with --resource <logicalId>=<physicalId>.\n`
            : `${result.stackName}: nothing imported.\n`,
        );
        return;
      }
      for (const resource of result.imported) {
        const next =
          resource.differing.length === 0
            ? 'matches the template'
            : `differs from the template in ${resource.differing.join(', ')}: the next deploy updates it`;
        process.stdout.write(
          `${result.stackName}: imported ${resource.logicalId} (${resource.type}) ${resource.physicalId}; ${next}.\n`,
        );
      }
    });
}

async function migrate(stack: string, options: ImportOptions, cmd: Command): Promise<void> {
  const chosen = [
    options.resource.length > 0 && '--resource',
    options.resourceMapping !== undefined && '--resource-mapping',
    options.resourceMappingInline !== undefined && '--resource-mapping-inline',
    options.recordResourceMapping !== undefined && '--record-resource-mapping',
  ].filter((flag): flag is string => typeof flag === 'string');
  if (chosen.length > 0) {
    throw new CdkdError(
      'IMPORT_FLAGS_CONFLICT',
      `${chosen.join(', ')} cannot be given with --migrate-from-cloudformation: every resource of the CloudFormation stack is taken over.`,
      { hint: `Drop ${chosen.join(', ')}.` },
    );
  }
  const { migrateFromCloudFormation } = await import('../../toolkit/migrate/index.js');
  const yes = globalOptions(cmd).yes ?? false;
  const assembly = await synthesizeFor(cmd, options);
  const session = sessionFor(cmd);
  const warn = (message: string) => process.stderr.write(`Warning: ${message}\n`);
  const result = await interruptible('import', { session, warn }, (signal) =>
    migrateFromCloudFormation({
      session,
      assembly,
      stack,
      force: options.force ?? false,
      io: cliIoHost({ yes, warn }),
      command: 'import',
      signal,
    }),
  );
  const out = (line: string) => process.stdout.write(`${result.stackName}: ${line}\n`);
  for (const resource of result.imported) {
    out(`recorded ${resource.logicalId} (${resource.type}) ${resource.physicalId}`);
  }
  if (result.alreadyRecorded.length > 0) out(`already recorded: ${result.alreadyRecorded.join(', ')}`);
  if (result.cloudFormation === 'holds-exports') {
    out(
      `migrated to cdkd; the CloudFormation stack keeps only its exports, at their values as of now${
        result.importers.length > 0 ? `, for ${result.importers.join(', ')}` : ''
      }.`,
    );
  } else out('migrated to cdkd; the CloudFormation stack is deleted, every resource retained.');
}
