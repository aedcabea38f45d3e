import { CloudFormationStacks, type CfnStack } from '../../aws/index.js';
import { CdkdError, messageOf } from '../../errors.js';
import { confirmPlan } from '../../messages/index.js';
import {
  FAIL_FAST_SCHEDULE,
  type HeldLock,
  type LockSchedule,
  type StackRef,
  type StateBackend,
  type StateDocument,
} from '../../state/index.js';
import { CDK_METADATA_TYPE, NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { withTemplateSource, withTemplateUrls } from '../handover-template.js';
import { note, type ToolkitIo } from '../io.js';
import type { Session } from '../session/session.js';
import { stateStackIdentity } from '../state/state-stack.js';
import { refuseCdkdExporters } from './exporters-first.js';
import {
  importIdentifier,
  importParameters,
  importTemplate,
  notImportable,
  notImportableError,
  type ResourceToImport,
} from './import-template.js';
import { childTemplates, handedOverChild, nestedChildren } from './nested-children.js';

export { importIdentifier, importParameters, importTemplate, notImportable } from './import-template.js';

/** The change set export creates, found again by name on a re-run. */
export const EXPORT_CHANGE_SET = 'cdkd-export';

/** Spec 003: export's nested children retry a held lock 6 times at 5-second intervals. */
export const CHILD_LOCK_SCHEDULE: LockSchedule = { retries: 6, intervalMs: 5_000, extraAttempts: 3 };

export interface ExportInput extends ToolkitIo {
  session: Session;
  stackName: string;
  region?: string;
  /** How often CloudFormation's progress is polled. */
  pollMs?: number;
  /** The wait between attempts on a nested child's held lock (spec 003: 5 s; tests shorten it). */
  childLockIntervalMs?: number;
}

export interface ExportResult {
  stackName: string;
  /** The logical ids CloudFormation now manages. */
  imported: string[];
  /** True when cdkd held no state for the stack: a run before this one finished the hand-over. */
  alreadyDone: boolean;
}

const SETTLED_OK = new Set(['IMPORT_COMPLETE', 'UPDATE_COMPLETE', 'CREATE_COMPLETE']);

/**
 * `cdkd export <stack>`: hands a cdkd stack to CloudFormation. CloudFormation imports every
 * recorded resource through an IMPORT change set, and cdkd forgets the stack only once
 * CloudFormation reports IMPORT_COMPLETE and lists each resource under the same physical id:
 * a failure or kill before that leaves the stack cdkd's, after it the re-run only forgets.
 * Refused before anything changes: a type CloudFormation cannot import, and a rollback
 * journal unless confirmed (spec 001). The stack's lock fails fast, its nested children's
 * locks retry 6 times at 5-second intervals (spec 003).
 */
export async function exportStack(input: ExportInput): Promise<ExportResult> {
  const identity = await stateStackIdentity(input.session, input.stackName, input.region);
  if (identity.stateName.includes('/')) {
    const root = identity.stateName.split('/')[0]!;
    throw new CdkdError(
      'EXPORT_NESTED_STACK',
      `${input.stackName} is a nested stack of ${root}; it is handed over with its root stack only.`,
      { hint: `Export the root stack: cdkd export ${root}.` },
    );
  }
  const ref: StackRef = { stackName: identity.stateName, region: identity.region };
  const backend = await input.session.stateBackend();
  const cfn = new CloudFormationStacks(input.session.clients, identity.region);
  const pollMs = input.pollMs ?? 2_000;
  const locks = await lockStackAndChildren(backend, ref, input.childLockIntervalMs);
  try {
    const read = await backend.store.read(ref);
    if (!read) {
      const existing = await cfn.describe(identity.stackName);
      if (existing && SETTLED_OK.has(existing.StackStatus ?? ''))
        return { stackName: identity.stackName, imported: [], alreadyDone: true };
      throw new CdkdError('EXPORT_STACK_NOT_FOUND', `cdkd holds no state for stack ${input.stackName}.`, {
        hint: 'cdkd list shows the stacks cdkd manages; name one of them (and --region when it is in several).',
      });
    }
    const document = read.document;
    const resources = exportedResources(input.stackName, document);
    const children = await nestedChildren(backend, ref, identity.stackName, document);
    // Everything refused is refused before anything changes: the children's resources and templates too.
    const childPlans = children.map((child) => ({
      child,
      resources: child.document ? exportedResources(child.ref.stackName, child.document) : [],
      template: child.document ? recordedTemplate(child.ref.stackName, child.document) : undefined,
    }));
    await refuseCdkdExporters(backend, ref, document);
    for (const { child } of childPlans) {
      if (child.document) await refuseCdkdExporters(backend, child.ref, child.document);
    }
    await confirmJournal(input, backend, ref, input.stackName);
    for (const { child } of childPlans) await confirmJournal(input, backend, child.ref, child.ref.stackName);
    const template = recordedTemplate(input.stackName, document);
    const handOver = async (
      stackName: string,
      plan: Omit<ImportPlan, 'pollMs' | 'region' | 'childUrls'>,
      expected: (logicalId: string) => string,
      childTexts: ReadonlyMap<string, string> = new Map(),
    ) => {
      let stack = await cfn.settle(stackName, pollMs);
      if (!stack || stack.StackStatus === 'REVIEW_IN_PROGRESS') {
        // The nested stacks' templates stay uploaded until the import has run: CloudFormation reads them then.
        stack = await withTemplateUrls(input.session, identity.region, stackName, childTexts, (childUrls) =>
          runImport(input, cfn, stackName, { ...plan, region: identity.region, pollMs, childUrls }),
        );
      }
      await checkHandedOver(cfn, stackName, stack, plan.resources, expected);
      return stack!;
    };
    // Each nested stack becomes a CloudFormation stack of its own, which the parent's IMPORT then nests.
    const stackIds = new Map<string, string>();
    for (const { child, resources: childResources, template: childTemplate } of childPlans) {
      if (!child.document || !childTemplate) {
        stackIds.set(
          child.logicalId,
          handedOverChild(identity.stackName, child, await cfn.settle(child.cfnName, pollMs), SETTLED_OK),
        );
        continue;
      }
      const recorded = child.document.resources;
      const stack = await handOver(
        child.cfnName,
        {
          template: childTemplate,
          parameters: importParameters(childTemplate, child.document.parameters),
          resources: childResources,
        },
        (logicalId) => recorded[logicalId]!.physicalId,
      );
      stackIds.set(child.logicalId, stack.StackId!);
    }
    const nestedRows = children.map((child) => ({
      logicalId: child.logicalId,
      type: NESTED_STACK_TYPE,
      identifier: { StackId: stackIds.get(child.logicalId)! },
    }));
    await handOver(
      identity.stackName,
      {
        template,
        parameters: importParameters(template, document.parameters),
        resources: [...resources, ...nestedRows],
      },
      (logicalId) => stackIds.get(logicalId) ?? document.resources[logicalId]!.physicalId,
      await childTemplates(cfn, children),
    );
    note(
      input,
      `${identity.stackName}: CloudFormation lists every resource; removing cdkd's state of the stack`,
    );
    for (const child of await backend.store.listChildren(ref)) {
      await backend.journals.remove(child);
      await backend.store.remove(child);
    }
    await backend.journals.remove(ref);
    await backend.store.remove(ref);
    return {
      stackName: identity.stackName,
      imported: [
        ...resources.map((r) => r.logicalId),
        ...childPlans.flatMap(({ child, resources: rs }) => [
          child.logicalId,
          ...rs.map((r) => `${child.logicalId}/${r.logicalId}`),
        ]),
      ],
      alreadyDone: false,
    };
  } catch (error) {
    for (const lock of locks) await lock.releaseAfter(error);
    throw error;
  } finally {
    for (const lock of locks.reverse()) await lock.release();
  }
}

/** The stack's lock (fail fast), then each nested child's with spec 003's retry. */
async function lockStackAndChildren(
  backend: StateBackend,
  ref: StackRef,
  childIntervalMs: number | undefined,
): Promise<HeldLock[]> {
  const held = [await backend.locks.acquire(ref, { operation: 'export', schedule: FAIL_FAST_SCHEDULE })];
  const schedule = { ...CHILD_LOCK_SCHEDULE, intervalMs: childIntervalMs ?? CHILD_LOCK_SCHEDULE.intervalMs };
  try {
    for (const child of await backend.store.listChildren(ref)) {
      held.push(await backend.locks.acquire(child, { operation: 'export', schedule }));
    }
  } catch (error) {
    for (const lock of held.reverse()) await lock.release();
    throw error;
  }
  return held;
}

/**
 * Each recorded resource with its identifier; the types CloudFormation cannot import refuse the
 * export. Nested stacks' rows are left to the caller: their identifier is the stack id their
 * CloudFormation stack gets.
 */
function exportedResources(stackName: string, document: StateDocument): ResourceToImport[] {
  const refused: string[] = [];
  const resources: ResourceToImport[] = [];
  for (const [logicalId, record] of Object.entries(document.resources)) {
    if (record.type === CDK_METADATA_TYPE || record.type === NESTED_STACK_TYPE) continue;
    const why = notImportable(record.type);
    const identifier =
      why === undefined
        ? importIdentifier({
            logicalId,
            type: record.type,
            physicalId: record.physicalId,
            properties: record.properties,
            attributes: record.attributes,
          })
        : undefined;
    if (why !== undefined) refused.push(`${logicalId} (${record.type}): ${why}`);
    else if (!identifier)
      refused.push(`${logicalId} (${record.type}): its identifier cannot be read from state`);
    else resources.push({ logicalId, type: record.type, identifier });
  }
  if (refused.length > 0) throw notImportableError(stackName, refused);
  return resources;
}

/** The deployed template the state records, which CloudFormation is given. */
function recordedTemplate(stackName: string, document: StateDocument): Record<string, unknown> {
  const template = document.template as Record<string, unknown> | undefined;
  if (template) return template;
  throw new CdkdError(
    'EXPORT_NO_TEMPLATE',
    `The state of stack ${stackName} records no deployed template, so there is nothing to give CloudFormation.`,
    { hint: `Deploy the stack once with this version of cdkd (cdkd deploy ${stackName}), then export it.` },
  );
}

/** Spec 001: a rollback journal makes export ask first; the journal goes with the state once confirmed. */
async function confirmJournal(
  input: ExportInput,
  backend: StateBackend,
  ref: StackRef,
  stackName: string,
): Promise<void> {
  const journal = await backend.journals.read(ref);
  if (!journal || journal.document.segments.length === 0) return;
  const yes = await confirmPlan(input.io, input.command, {
    heading: `Stack ${stackName} has a rollback journal: a deploy of it failed and was not rolled back.`,
    lines: [
      "Exported, the stack is CloudFormation's as it stands now, and the journal is removed with cdkd's state.",
    ],
    question: `Export ${stackName} to CloudFormation anyway?`,
  });
  if (!yes) {
    throw new CdkdError(
      'EXPORT_JOURNAL_PRESENT',
      `Stack ${stackName} has a rollback journal, so it was not exported.`,
      {
        hint: `Roll back (cdkd rollback ${stackName.replaceAll('/', '~')}) or re-deploy first, or confirm (--yes) to export it as it stands.`,
      },
    );
  }
}

interface ImportPlan {
  region: string;
  template: Record<string, unknown>;
  parameters: Record<string, string>;
  resources: ResourceToImport[];
  /** Where the nested stacks' templates are, by their rows' logical ids. */
  childUrls?: ReadonlyMap<string, string>;
  pollMs: number;
}

/** Creates (or finds again) the IMPORT change set, runs it and waits for CloudFormation to settle. */
async function runImport(
  input: ExportInput,
  cfn: CloudFormationStacks,
  stackName: string,
  plan: ImportPlan,
): Promise<CfnStack | undefined> {
  let changeSet = await cfn.settleChangeSet(stackName, EXPORT_CHANGE_SET, plan.pollMs);
  if (changeSet && (changeSet.status !== 'CREATE_COMPLETE' || changeSet.executionStatus !== 'AVAILABLE')) {
    await cfn.deleteChangeSet(stackName, EXPORT_CHANGE_SET);
    changeSet = undefined;
  }
  if (!changeSet) {
    note(input, `${stackName}: creating CloudFormation IMPORT change set ${EXPORT_CHANGE_SET}`);
    const ids = new Set(plan.resources.map((r) => r.logicalId));
    const text = JSON.stringify(importTemplate(plan.template, ids, plan.childUrls));
    changeSet = await withTemplateSource(input.session, plan.region, stackName, text, async (template) => {
      try {
        await cfn.createImportChangeSet({
          stackName,
          changeSetName: EXPORT_CHANGE_SET,
          template,
          parameters: plan.parameters,
          resources: plan.resources,
        });
      } catch (cause) {
        throw changeSetRefused(stackName, messageOf(cause), cause);
      }
      return cfn.settleChangeSet(stackName, EXPORT_CHANGE_SET, plan.pollMs);
    });
    if (changeSet?.status !== 'CREATE_COMPLETE') {
      throw changeSetRefused(stackName, changeSet?.reason ?? changeSet?.status ?? 'it is gone');
    }
  }
  note(input, `${stackName}: executing change set ${EXPORT_CHANGE_SET}`);
  await cfn.executeChangeSet(stackName, EXPORT_CHANGE_SET);
  return cfn.settle(stackName, plan.pollMs);
}

function changeSetRefused(stackName: string, why: string, cause?: unknown): CdkdError {
  return new CdkdError(
    'EXPORT_CLOUDFORMATION_FAILED',
    `CloudFormation refused the IMPORT change set for stack ${stackName}: ${why}. cdkd still manages the stack.`,
    { hint: 'Fix what CloudFormation names, then run cdkd export again.', ...(cause ? { cause } : {}) },
  );
}

/**
 * Proof the hand-over happened before cdkd forgets anything: the CloudFormation stack is
 * settled in a complete status and lists every recorded resource under its physical id.
 */
async function checkHandedOver(
  cfn: CloudFormationStacks,
  stackName: string,
  stack: CfnStack | undefined,
  resources: readonly ResourceToImport[],
  expected: (logicalId: string) => string,
): Promise<void> {
  const status = stack?.StackStatus ?? 'gone';
  const listed = stack && SETTLED_OK.has(status) ? await cfn.resources(stackName) : [];
  const missing = resources.filter((resource) => {
    const recorded = expected(resource.logicalId);
    return !listed.some(
      (one) => one.LogicalResourceId === resource.logicalId && one.PhysicalResourceId === recorded,
    );
  });
  if (SETTLED_OK.has(status) && missing.length === 0) return;
  throw new CdkdError(
    'EXPORT_CLOUDFORMATION_FAILED',
    `CloudFormation did not take over stack ${stackName} (its stack is ${status}${
      stack?.StackStatusReason ? `: ${stack.StackStatusReason}` : ''
    }${missing.length > 0 ? `; it does not list ${missing.map((r) => r.logicalId).join(', ')}` : ''}). cdkd still manages the stack.`,
    {
      hint: "Check the stack's events in CloudFormation (a stack of that name that cdkd did not create must be deleted or renamed first), then run cdkd export again.",
    },
  );
}
