import type { CfnStack, CloudFormationStacks } from '../../aws/index.js';
import { CdkdError } from '../../errors.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import type { StackRef, StateBackend, StateDocument } from '../../state/index.js';
import { notImportableError } from './import-template.js';

/** A nested stack of the stack exported: its state, and the CloudFormation stack it becomes first. */
export interface ExportedChild {
  logicalId: string;
  ref: StackRef;
  /** The name its CloudFormation stack gets (cdkd's nested stack name, `{parent}-{logicalId}`). */
  cfnName: string;
  /** Undefined when a run before this one handed it over and removed its state. */
  document?: StateDocument;
}

/**
 * The stack's nested stacks, from its rows of AWS::CloudFormation::Stack. CloudFormation nests
 * an existing stack by IMPORT one level deep only (AWS: no stack imported into a child, no
 * stack imported that has children), so a deeper tree is refused before anything changes; so
 * is a nested stack's state no row of the stack names (its resources would be forgotten).
 */
export async function nestedChildren(
  backend: StateBackend,
  ref: StackRef,
  stackName: string,
  document: StateDocument,
): Promise<ExportedChild[]> {
  const children: ExportedChild[] = [];
  const refused: string[] = [];
  for (const [logicalId, record] of Object.entries(document.resources)) {
    if (record.type !== NESTED_STACK_TYPE) continue;
    const childRef = { stackName: `${ref.stackName}/${logicalId}`, region: ref.region };
    const read = await backend.store.read(childRef);
    if (read && (await backend.store.listChildren(childRef)).length > 0) {
      refused.push(
        `${logicalId} (${NESTED_STACK_TYPE}): it has nested stacks of its own, and CloudFormation imports nested stacks one level deep only`,
      );
    }
    children.push({
      logicalId,
      ref: childRef,
      cfnName: `${stackName}-${logicalId}`,
      ...(read ? { document: read.document } : {}),
    });
  }
  for (const listed of await backend.store.listChildren(ref)) {
    const logicalId = listed.stackName.slice(ref.stackName.length + 1);
    if (logicalId.includes('/') || children.some((child) => child.logicalId === logicalId)) continue;
    refused.push(`nested stack state ${listed.stackName}: no ${NESTED_STACK_TYPE} row of the stack names it`);
  }
  if (refused.length > 0) throw notImportableError(stackName, refused);
  return children;
}

/** A child a run before this one handed over: CloudFormation must hold its stack, settled. */
export function handedOverChild(
  stackName: string,
  child: ExportedChild,
  stack: CfnStack | undefined,
  settledOk: ReadonlySet<string>,
): string {
  if (stack?.StackId && settledOk.has(stack.StackStatus ?? '')) return stack.StackId;
  throw new CdkdError(
    'EXPORT_CLOUDFORMATION_FAILED',
    `cdkd holds no state for nested stack ${child.ref.stackName} of ${stackName}, and CloudFormation holds no settled stack ${child.cfnName} for it (${stack?.StackStatus ?? 'none'}). cdkd still manages ${stackName}.`,
    { hint: `Check stack ${child.cfnName} in CloudFormation, then run cdkd export again.` },
  );
}

export async function childTemplates(
  cfn: CloudFormationStacks,
  children: readonly ExportedChild[],
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const child of children) texts.set(child.logicalId, await cfn.template(child.cfnName));
  return texts;
}
