import type { CloudFormationStacks, CfnResource } from '../../aws/index.js';
import type { StackRequest } from '../../engine/index.js';
import { nestedIdentity, nestedStackId } from '../../engine/nested/index.js';
import { CdkdError } from '../../errors.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { parseTemplateText } from '../../template/parse.js';
import { withTemplateUrl } from '../handover-template.js';
import type { Session } from '../session/session.js';
import { retainedTemplate, retainsEverything } from './retain-template.js';

/** One CloudFormation stack of the tree being migrated, beside the cdkd stack it becomes. */
export interface MigratingStack {
  /** How CloudFormation is asked about it: the root's name, a nested stack's id. */
  cfnName: string;
  request: StackRequest;
  resources: CfnResource[];
  /** Its template as CloudFormation holds it now. */
  template: Record<string, unknown>;
  /** Its nested stacks, by their logical ids in it. */
  children: Map<string, MigratingStack>;
  /** The export names its outputs declare (a nested stack's own; the root's are read apart). */
  exports: string[];
}

/**
 * The CloudFormation stack and its nested stacks, each paired with the cdkd stack it becomes:
 * a child's state is `{parent}/{logicalId}` (as a cdkd deploy keeps it), its template the
 * app's nested template, its parameters the values CloudFormation passed it.
 */
export async function readStackTree(
  cfn: CloudFormationStacks,
  cfnName: string,
  request: StackRequest,
): Promise<MigratingStack> {
  const resources = await cfn.resources(cfnName);
  const template = parseTemplateText(await cfn.template(cfnName), request.stackName) as Record<
    string,
    unknown
  >;
  const children = new Map<string, MigratingStack>();
  for (const resource of resources) {
    if (resource.ResourceType !== NESTED_STACK_TYPE || !resource.PhysicalResourceId) continue;
    const logicalId = resource.LogicalResourceId ?? '';
    const nested = request.nested?.get(logicalId);
    if (!nested) {
      throw new CdkdError(
        'MIGRATE_TEMPLATE_MISMATCH',
        `Cannot take over CloudFormation stack ${request.stackName}: the app's stack has no nested template for ${logicalId}. Nothing was migrated.`,
        {
          hint: 'Synthesize the app whose stack CloudFormation deployed (the same nested stacks), then migrate.',
        },
      );
    }
    const described = await cfn.describe(resource.PhysicalResourceId);
    const parameters = Object.fromEntries(
      (described?.Parameters ?? []).flatMap((p) =>
        p.ParameterKey ? [[p.ParameterKey, p.ResolvedValue ?? p.ParameterValue ?? '']] : [],
      ),
    );
    const child: StackRequest = {
      ...nestedIdentity(request, logicalId),
      template: nested.template,
      nested: nested.nested,
      parameters,
      ...(request.assemblyDir ? { assemblyDir: request.assemblyDir } : {}),
    };
    const read = await readStackTree(cfn, resource.PhysicalResourceId, child);
    read.exports = (described?.Outputs ?? []).flatMap((output) =>
      output.ExportName ? [output.ExportName] : [],
    );
    children.set(logicalId, read);
  }
  return { cfnName, request, resources, template, children, exports: [] };
}

/** The stack id cdkd records for a nested stack of `stack`, if it has one under that logical id. */
export function childStackId(stack: MigratingStack, logicalId: string): string | undefined {
  const child = stack.children.get(logicalId);
  return child ? nestedStackId(child.request) : undefined;
}

/** Children before their parents: each nested stack's row is recorded once its own state exists. */
export function childrenFirst(stack: MigratingStack): MigratingStack[] {
  return [...[...stack.children.values()].flatMap(childrenFirst), stack];
}

/** True when deleting the stack deletes none of the resources of its tree. */
export function treeRetainsEverything(stack: MigratingStack): boolean {
  return retainsEverything(stack.template) && [...stack.children.values()].every(treeRetainsEverything);
}

/**
 * Runs `use` with the stack's template retaining everything, its nested stacks' retained
 * templates uploaded (deepest first) and named by URL in their rows until `use` is done:
 * updating the root with it retains the whole tree in one CloudFormation update.
 */
export async function withRetainedTemplate<T>(
  session: Session,
  region: string,
  stack: MigratingStack,
  use: (text: string) => Promise<T>,
): Promise<T> {
  const children = [...stack.children];
  const urls = new Map<string, string>();
  const next = async (i: number): Promise<T> => {
    if (i === children.length) return use(JSON.stringify(retainedTemplate(stack.template, urls)));
    const [logicalId, child] = children[i]!;
    return withRetainedTemplate(session, region, child, (text) =>
      withTemplateUrl(session, region, child.request.stackName, text, (url) => {
        urls.set(logicalId, url);
        return next(i + 1);
      }),
    );
  };
  return next(0);
}
