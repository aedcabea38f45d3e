import { walkNestedStacks, type CloudAssembly } from '../../assembly/index.js';
import { CloudFormationStacks, type CfnResource, type CfnStack } from '../../aws/index.js';
import type { Engine, ImportChoice, ImportedResource, StackRequest } from '../../engine/index.js';
import { CdkdError, messageOf } from '../../errors.js';
import { CDK_METADATA_TYPE, NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { assetBucketName } from '../../state/bucket-names.js';
import { withTemplateSource } from '../handover-template.js';
import { note, withoutProgress, type ToolkitIo } from '../io.js';
import { openEngine } from '../session/provider-wiring.js';
import type { Session } from '../session/session.js';
import { singleStackTarget, stackRequest } from '../stacks/stack-requests.js';
import {
  childrenFirst,
  childStackId,
  readStackTree,
  treeRetainsEverything,
  withRetainedTemplate,
  type MigratingStack,
} from './nested.js';
import { EXPORT_HOLDER_ID, exportHolderTemplate } from './retain-template.js';

export {
  EXPORT_HOLDER_ID,
  exportHolderTemplate,
  retainedTemplate,
  retainsEverything,
} from './retain-template.js';

export interface MigrateInput extends ToolkitIo {
  session: Session;
  assembly: CloudAssembly;
  /** The app's stack, which names the CloudFormation stack to take over. */
  stack: string;
  /** Take over a stack whose exports other CloudFormation stacks import (they keep the values as of now). */
  force?: boolean;
  signal?: AbortSignal;
  pollMs?: number;
}

export interface MigrateResult {
  stackName: string;
  imported: ImportedResource[];
  /** Logical ids a run before this one recorded already. */
  alreadyRecorded: string[];
  /** What became of the CloudFormation stack. */
  cloudFormation: 'deleted' | 'holds-exports' | 'already-gone';
  /** Under --force: the stacks importing its exports, which keep their values as of the migration. */
  importers: string[];
}

const TAKEABLE = new Set([
  'CREATE_COMPLETE',
  'UPDATE_COMPLETE',
  'UPDATE_ROLLBACK_COMPLETE',
  'IMPORT_COMPLETE',
  'IMPORT_ROLLBACK_COMPLETE',
  'DELETE_FAILED',
]);

/**
 * `cdkd import --migrate-from-cloudformation <stack>`: takes a CloudFormation stack over
 * into the app's stack of the same name. In this order, each step durable before the next:
 * (1) every resource is recorded in cdkd's state under its logical id (import marks first,
 * as `cdkd import`); (2) the CloudFormation template is updated to DeletionPolicy Retain on
 * every resource; (3) the CloudFormation stack is deleted, which keeps them all (or, under
 * --force with importers, reduced to its exports). A failure or kill at any step leaves no
 * resource without a manager, and a re-run picks up from what it finds: resources already
 * recorded are skipped, a template already retaining is not updated, a stack already gone
 * is done.
 */
export async function migrateFromCloudFormation(input: MigrateInput): Promise<MigrateResult> {
  const { stack, target, session } = await singleStackTarget(input.session, input.assembly, input.stack);
  const stackName = stack.stackName;
  const outputDir = input.assembly.directory;
  const nested = walkNestedStacks(
    { name: stackName, templateFile: stack.templateFile, template: stack.template },
    { outputDir },
  );
  const request: StackRequest = {
    ...stackRequest(stack, nested, target, assetBucketName(target.accountId, target.region), {}),
    assemblyDir: outputDir,
  };
  const cfn = new CloudFormationStacks(session.clients, target.region);
  const pollMs = input.pollMs ?? 2_000;
  const backend = await session.stateBackend();
  const recorded = async (one: StackRequest = request) =>
    (await backend.store.read({ stackName: one.stateName, region: target.region }))?.document.resources ?? {};
  const result: MigrateResult = {
    stackName,
    imported: [],
    alreadyRecorded: [],
    cloudFormation: 'deleted',
    importers: [],
  };
  const existing = await cfn.settle(stackName, pollMs);
  if (!existing || isExportHolder(await cfn.resources(stackName))) {
    if (Object.keys(await recorded()).length === 0) {
      throw new CdkdError(
        'MIGRATE_STACK_NOT_FOUND',
        `CloudFormation holds no stack ${stackName} in ${target.region}, and cdkd has recorded none.`,
        {
          hint: "Name the stack as CloudFormation does (the app's stack of that name is the one recorded into), with --region if needed.",
        },
      );
    }
    return { ...result, cloudFormation: existing ? 'holds-exports' : 'already-gone' };
  }
  refuseStatus(existing);
  const exports = (existing.Outputs ?? []).flatMap((output) =>
    output.ExportName ? [{ name: output.ExportName, value: output.OutputValue ?? '' }] : [],
  );
  const importers = await importersOf(cfn, exports);
  if (importers.size > 0 && input.force !== true) throw importedExportsError(stackName, importers);
  result.importers = [...new Set([...importers.values()].flat())];

  const tree = await readStackTree(cfn, stackName, request);
  // --force keeps the root's exports in CloudFormation, never a nested stack's: those go with it.
  const nestedImporters = await importersOf(
    cfn,
    childrenFirst(tree).flatMap((one) => one.exports.map((name) => ({ name }))),
  );
  if (nestedImporters.size > 0) throw importedNestedExportsError(stackName, nestedImporters);
  const resources = tree.resources;
  let engine: Engine | undefined;
  // Nested stacks first, deepest first: a parent's row of a nested stack is read from the child's state.
  for (const one of childrenFirst(tree)) {
    const at = pathOf(tree, one);
    const choices = migrateChoices(
      one.request.stackName,
      one.resources,
      one.request.template as Record<string, unknown>,
      (logicalId) => childStackId(one, logicalId),
    );
    const already = await recorded(one.request);
    const wanted = choices.filter((choice) => already[choice.logicalId]?.physicalId !== choice.physicalId);
    result.alreadyRecorded.push(...choices.filter((c) => !wanted.includes(c)).map((c) => at + c.logicalId));
    if (wanted.length === 0) continue;
    note(
      input,
      `${one.request.stateName}: recording ${wanted.length} resource(s) of the CloudFormation stack in cdkd's state`,
    );
    engine ??= await openEngine(session, {
      io: withoutProgress(input.io),
      command: input.command,
      regions: [target.region],
    });
    const imported = await engine.importResources(one.request, wanted, {
      ...(input.signal ? { signal: input.signal } : {}),
    });
    result.imported.push(...imported.map((r) => ({ ...r, logicalId: at + r.logicalId })));
  }

  if (!treeRetainsEverything(tree)) {
    note(input, `${stackName}: setting DeletionPolicy Retain on every resource of the CloudFormation stack`);
    const keys = (existing.Parameters ?? []).flatMap((p) => (p.ParameterKey ? [p.ParameterKey] : []));
    await withRetainedTemplate(session, target.region, tree, (retained) =>
      withTemplateSource(session, target.region, stackName, retained, async (source) => {
        await cloudFormationStep(stackName, 'retain its resources', () =>
          cfn.update(stackName, source, keys),
        );
        expectStatus(
          await cfn.settle(stackName, pollMs),
          stackName,
          ['UPDATE_COMPLETE'],
          'retain its resources',
        );
      }),
    );
  }

  if (importers.size > 0) {
    note(input, `${stackName}: reducing the CloudFormation stack to its exports`);
    await cloudFormationStep(stackName, 'keep only its exports', () =>
      cfn.update(stackName, { body: JSON.stringify(exportHolderTemplate(exports)) }, []),
    );
    expectStatus(
      await cfn.settle(stackName, pollMs),
      stackName,
      ['UPDATE_COMPLETE'],
      'keep only its exports',
    );
    return { ...result, cloudFormation: 'holds-exports' };
  }
  note(input, `${stackName}: deleting the CloudFormation stack, every resource retained`);
  const current = await cfn.describe(stackName);
  const retain =
    current?.StackStatus === 'DELETE_FAILED'
      ? resources.flatMap((r) =>
          // A nested stack is deleted with its parent, keeping its own resources.
          r.LogicalResourceId && r.ResourceType !== NESTED_STACK_TYPE ? [r.LogicalResourceId] : [],
        )
      : [];
  await cloudFormationStep(stackName, 'be deleted', () => cfn.delete(stackName, retain));
  expectStatus(await cfn.settle(stackName, pollMs), stackName, [], 'be deleted');
  return result;
}

/** Where a nested stack's logical ids sit below the root, as `Child/` (empty for the root). */
function pathOf(root: MigratingStack, stack: MigratingStack): string {
  return stack === root ? '' : `${stack.request.stateName.slice(root.request.stateName.length + 1)}/`;
}

function isExportHolder(resources: readonly CfnResource[]): boolean {
  return resources.length === 1 && resources[0]!.LogicalResourceId === EXPORT_HOLDER_ID;
}

function refuseStatus(stack: CfnStack): void {
  const status = stack.StackStatus ?? '';
  if (stack.ParentId) {
    throw new CdkdError(
      'MIGRATE_NESTED_STACK',
      `${stack.StackName} is a nested stack of ${stack.ParentId}; it moves with its root stack only.`,
      { hint: 'Migrate the root stack.' },
    );
  }
  if (!TAKEABLE.has(status)) {
    throw new CdkdError(
      'MIGRATE_STACK_STATUS',
      `CloudFormation stack ${stack.StackName} is ${status}, so it cannot be taken over now.`,
      {
        hint: 'Bring it to a complete state in CloudFormation first (update, continue or roll back the update).',
      },
    );
  }
}

async function importersOf(
  cfn: CloudFormationStacks,
  exports: ReadonlyArray<{ name: string }>,
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const { name } of exports) {
    const stacks = await cfn.importers(name);
    if (stacks.length > 0) found.set(name, stacks);
  }
  return found;
}

function importedNestedExportsError(stackName: string, importers: ReadonlyMap<string, string[]>): CdkdError {
  const lines = [...importers].map(([name, stacks]) => `${name} (imported by ${stacks.join(', ')})`);
  return new CdkdError(
    'MIGRATE_EXPORTS_IMPORTED',
    `Other CloudFormation stacks import exports of nested stacks of ${stackName}: ${lines.join('; ')}. Nothing was migrated.`,
    {
      hint: "Migrate (or change) the importing stacks first; --force keeps only the root stack's exports in CloudFormation, and a nested stack's go when it is deleted.",
    },
  );
}

function importedExportsError(stackName: string, importers: ReadonlyMap<string, string[]>): CdkdError {
  const lines = [...importers].map(([name, stacks]) => `${name} (imported by ${stacks.join(', ')})`);
  return new CdkdError(
    'MIGRATE_EXPORTS_IMPORTED',
    `Other CloudFormation stacks import exports of ${stackName}: ${lines.join('; ')}. Nothing was migrated.`,
    {
      hint:
        'Migrate the importing stacks first, or give --force: the CloudFormation stack is then kept holding ' +
        'only those exports, fixed at their current values, so the importers keep working but no longer see ' +
        'changes cdkd makes to them.',
    },
  );
}

/**
 * The CloudFormation stack's resources as import choices into the app's template. CDK
 * metadata stays behind. A resource the app's template does not declare with the same type
 * refuses the migration (it would be left with no manager). A nested stack's row becomes the
 * stack id cdkd gives that nested stack (`nestedId`), its resources migrating into its own state.
 */
export function migrateChoices(
  stackName: string,
  resources: readonly CfnResource[],
  template: Record<string, unknown>,
  nestedId: (logicalId: string) => string | undefined = () => undefined,
): ImportChoice[] {
  const declared = (template.Resources ?? {}) as Record<string, { Type?: string }>;
  const refused: string[] = [];
  const choices: ImportChoice[] = [];
  for (const resource of resources) {
    const logicalId = resource.LogicalResourceId ?? '';
    const type = resource.ResourceType ?? '';
    if (type === CDK_METADATA_TYPE) continue;
    const physicalId = type === NESTED_STACK_TYPE ? nestedId(logicalId) : resource.PhysicalResourceId;
    if (!physicalId) refused.push(`${logicalId} has no physical id`);
    else if (declared[logicalId]?.Type !== type)
      refused.push(`the app's stack declares no ${type} ${logicalId}`);
    else choices.push({ logicalId, physicalId });
  }
  if (refused.length > 0) {
    throw new CdkdError(
      'MIGRATE_TEMPLATE_MISMATCH',
      `Cannot take over CloudFormation stack ${stackName}: ${refused.join('; ')}. Nothing was migrated.`,
      {
        hint: 'Synthesize the app whose stack CloudFormation deployed (the same logical ids and types), then migrate.',
      },
    );
  }
  return choices;
}

/** A CloudFormation call of the migration, its refusal told as the step that did not happen. */
async function cloudFormationStep<T>(stackName: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (cause) {
    throw stepFailed(stackName, what, `CloudFormation answered ${messageOf(cause)}`, cause);
  }
}

function stepFailed(stackName: string, what: string, why: string, cause?: unknown): CdkdError {
  return new CdkdError(
    'MIGRATE_CLOUDFORMATION_FAILED',
    `CloudFormation stack ${stackName} did not ${what}: ${why}. Every resource is recorded in cdkd's state; run the migration again once the stack is settled.`,
    { hint: "Check the stack's events in CloudFormation.", ...(cause ? { cause } : {}) },
  );
}

function expectStatus(
  stack: CfnStack | undefined,
  stackName: string,
  statuses: readonly string[],
  what: string,
): void {
  const status = stack?.StackStatus;
  if (status === undefined ? statuses.length === 0 : statuses.includes(status)) return;
  const reason = stack?.StackStatusReason ? ` (${stack.StackStatusReason})` : '';
  throw stepFailed(stackName, what, `it is ${status ?? 'gone'}${reason}`);
}
