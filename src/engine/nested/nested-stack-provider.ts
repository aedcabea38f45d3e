import { createHash } from 'node:crypto';
import { CdkdError } from '../../errors.js';
import type {
  CreateResult,
  DeleteRequest,
  LiveResource,
  Provider,
  ResourceRequest,
  UpdateRequest,
  UpdateResult,
} from '../../providers/index.js';
import { noOuterRetry } from '../../providers/retry-class.js';
import { NESTED_STACK_TYPE } from '../../resource-types/index.js';
import { partitionForRegion } from '../../template/index.js';
import type { EngineContext, StackIdentity } from '../engine-context.js';
import type { DeployOptions, NestedTemplate, StackRequest } from '../stack-request.js';

/** A nested stack: state under `{parent}/{logicalId}`, named `{parent}-{logicalId}`, its parent's tags. */
export function nestedIdentity(parent: StackIdentity, logicalId: string): StackIdentity {
  return {
    stateName: `${parent.stateName}/${logicalId}`,
    stackName: `${parent.stackName}-${logicalId}`,
    region: parent.region,
    accountId: parent.accountId,
    isNested: true,
    ...(parent.tags ? { tags: parent.tags } : {}),
  };
}

/** The nested stacks whose state sits under `parent`, found by their state keys. */
export async function nestedStacksOf(engine: EngineContext, parent: StackIdentity): Promise<StackIdentity[]> {
  const refs = await engine.backend.store.listChildren({
    stackName: parent.stateName,
    region: parent.region,
  });
  return refs.map((ref) => nestedIdentity(parent, ref.stackName.slice(parent.stateName.length + 1)));
}

type StackDeployer = (
  request: StackRequest,
  options: DeployOptions,
) => Promise<{ outputs: Record<string, { value: unknown }> }>;
type StackDestroyer = (stack: Omit<StackRequest, 'template'>, options: DeployOptions) => Promise<unknown>;

/**
 * Nested stacks are deployed by cdkd itself, not by a provider of AWS's: each
 * child is a stack of its own (state under `{parent}/{logicalId}`, its own
 * lock), deployed when its parent's row runs. `Fn::GetAtt Child.Outputs.X`
 * reads the child's outputs. Its failures are final for the outer retry (spec 003,
 * "Providers outside the outer retry"): the child's resources already ran their own
 * schedules, and a replay would deploy the whole child again.
 */
export class NestedStackProvider implements Provider {
  readonly kind = 'sdk' as const;

  constructor(
    private readonly parent: Omit<StackRequest, 'template'>,
    private readonly options: DeployOptions,
    private readonly deploy: StackDeployer,
    private readonly destroy: StackDestroyer,
    private readonly engine: EngineContext,
  ) {}

  handles(type: string): boolean {
    return type === NESTED_STACK_TYPE;
  }

  canUpdateInPlace(): boolean {
    return true;
  }

  async create(request: ResourceRequest): Promise<CreateResult> {
    await this.walkAgain(request.logicalId).catch((error: unknown) => {
      throw noOuterRetry(error);
    });
    const child = this.childRequest(request.logicalId, request.properties);
    const result = await this.deploy(child, this.options).catch((error: unknown) => {
      throw noOuterRetry(error);
    });
    return { physicalId: this.stackId(child), attributes: outputAttributes(result.outputs) };
  }

  async update(request: UpdateRequest): Promise<UpdateResult> {
    const created = await this.create(request);
    return { physicalId: created.physicalId, attributes: created.attributes };
  }

  async delete(request: DeleteRequest): Promise<void> {
    await this.destroy(this.childIdentity(request.logicalId), this.options).catch((error: unknown) => {
      throw noOuterRetry(error);
    });
  }

  async read(request: DeleteRequest): Promise<LiveResource | undefined> {
    const child = this.childIdentity(request.logicalId);
    const read = await this.engine.backend.store.read({ stackName: child.stateName, region: child.region });
    if (!read) return undefined;
    return { properties: {}, attributes: outputAttributes(read.document.outputs) };
  }

  /**
   * Spec 002, "The nested-template walk": before the first nested level deploys, the walk is
   * repeated on the subtree under this row, from the files the assembly holds. The run's own
   * check already walked it, so this refuses only a nested deploy started some other way.
   */
  private async walkAgain(logicalId: string): Promise<void> {
    const nested = this.parent.nested?.get(logicalId);
    const outputDir = this.parent.assemblyDir;
    if (this.parent.isNested || !nested?.templateFile || !outputDir) return;
    const { walkNestedStacks } = await import('../../assembly/nested-stacks.js');
    walkNestedStacks(
      {
        name: `${this.parent.stackName}~${logicalId}`,
        templateFile: nested.templateFile,
        template: nested.template,
      },
      { outputDir, messagePrefix: 'NestedStackProvider: ' },
    );
  }

  private childIdentity(logicalId: string): StackIdentity {
    return nestedIdentity(this.parent, logicalId);
  }

  private childRequest(logicalId: string, properties: Record<string, unknown>): StackRequest {
    const nested: NestedTemplate | undefined = this.parent.nested?.get(logicalId);
    if (!nested) {
      throw new CdkdError(
        'NESTED_TEMPLATE_NOT_FOUND',
        `No template was found in the cloud assembly for nested stack ${logicalId}.`,
        {
          hint: 'Re-run the synth; the nested template should sit beside its parent in cdk.out.',
        },
      );
    }
    return {
      ...this.childIdentity(logicalId),
      template: nested.template,
      nested: nested.nested,
      parameters: stringParameters(properties.Parameters),
      ...(this.parent.assemblyDir ? { assemblyDir: this.parent.assemblyDir } : {}),
    };
  }

  private stackId(child: Omit<StackRequest, 'template'>): string {
    return nestedStackId(child);
  }
}

/** The stack id a nested stack's row records: an ARN of CloudFormation's shape, stable per state name. */
export function nestedStackId(child: StackIdentity): string {
  const id = createHash('sha256')
    .update(`${child.accountId}/${child.region}/${child.stateName}`)
    .digest('hex');
  const guid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`;
  return `arn:${partitionForRegion(child.region)}:cloudformation:${child.region}:${child.accountId}:stack/${child.stackName}/${guid}`;
}

function outputAttributes(outputs: Record<string, { value: unknown }>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).map(([name, output]) => [`Outputs.${name}`, output.value]),
  );
}

function stringParameters(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
}
