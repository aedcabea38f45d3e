import type { CloudFormationClient, Stack, StackResourceSummary } from '@aws-sdk/client-cloudformation';
import type { AwsClients } from './client-factory.js';
import { awsErrorCode } from './error-class.js';

/** A stack as the hand-over reads it; undefined when CloudFormation holds none by the name (or it is deleted). */
export type CfnStack = Stack;

export type CfnResource = Pick<
  StackResourceSummary,
  'LogicalResourceId' | 'PhysicalResourceId' | 'ResourceType' | 'ResourceStatus'
>;

/** A template given inline, or by the S3 URL CloudFormation reads it from (past 51,200 bytes). */
export type TemplateSource = { body: string } | { url: string };

const templateParameter = (template: TemplateSource) =>
  'url' in template ? { TemplateURL: template.url } : { TemplateBody: template.body };

export interface ImportChangeSetInput {
  stackName: string;
  changeSetName: string;
  template: TemplateSource;
  parameters: Record<string, string>;
  resources: ReadonlyArray<{ logicalId: string; type: string; identifier: Record<string, string> }>;
}

const CAPABILITIES = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'] as const;

/**
 * The CloudFormation calls of the hand-over between CloudFormation and cdkd (`cdkd import
 * --migrate-from-cloudformation`, `cdkd export`). The SDK module loads on first use: other
 * commands never call CloudFormation.
 */
export class CloudFormationStacks {
  private client: Promise<CloudFormationClient> | undefined;

  constructor(
    private readonly clients: AwsClients,
    private readonly region: string,
  ) {}

  private sdk() {
    return import('@aws-sdk/client-cloudformation');
  }

  private cfn(): Promise<CloudFormationClient> {
    this.client ??= this.sdk().then(({ CloudFormationClient }) =>
      this.clients.client(CloudFormationClient, this.region),
    );
    return this.client;
  }

  /** The stack by name, or undefined when there is none or it is DELETE_COMPLETE. */
  async describe(stackName: string): Promise<CfnStack | undefined> {
    const { DescribeStacksCommand } = await this.sdk();
    try {
      const answer = await (await this.cfn()).send(new DescribeStacksCommand({ StackName: stackName }));
      const stack = answer.Stacks?.[0];
      return stack && stack.StackStatus !== 'DELETE_COMPLETE' ? stack : undefined;
    } catch (error) {
      if (awsErrorCode(error) === 'ValidationError' && /does not exist/.test(String(error))) return undefined;
      throw error;
    }
  }

  /**
   * Polls the stack until its status no longer ends in _IN_PROGRESS (REVIEW_IN_PROGRESS, a
   * stack made for a change set not yet run, counts as settled): undefined once it is gone.
   */
  async settle(stackName: string, pollMs: number): Promise<CfnStack | undefined> {
    for (;;) {
      const stack = await this.describe(stackName);
      const status = stack?.StackStatus ?? '';
      if (!stack || status === 'REVIEW_IN_PROGRESS' || !status.endsWith('_IN_PROGRESS')) return stack;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  /** Polls the change set until it is no longer being created. */
  async settleChangeSet(stackName: string, changeSetName: string, pollMs: number) {
    for (;;) {
      const changeSet = await this.changeSet(stackName, changeSetName);
      if (!changeSet || (!changeSet.status.endsWith('_IN_PROGRESS') && changeSet.status !== 'CREATE_PENDING'))
        return changeSet;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async resources(stackName: string): Promise<CfnResource[]> {
    const { ListStackResourcesCommand } = await this.sdk();
    const all: CfnResource[] = [];
    let NextToken: string | undefined;
    do {
      const page = await (
        await this.cfn()
      ).send(new ListStackResourcesCommand({ StackName: stackName, NextToken }));
      all.push(...(page.StackResourceSummaries ?? []));
      NextToken = page.NextToken;
    } while (NextToken);
    return all.filter((resource) => resource.ResourceStatus !== 'DELETE_COMPLETE');
  }

  /** The template as it was given (the Original stage), as text. */
  async template(stackName: string): Promise<string> {
    const { GetTemplateCommand } = await this.sdk();
    const answer = await (
      await this.cfn()
    ).send(new GetTemplateCommand({ StackName: stackName, TemplateStage: 'Original' }));
    return answer.TemplateBody ?? '{}';
  }

  /** The stacks that import `exportName` (ListImports answers a ValidationError for none). */
  async importers(exportName: string): Promise<string[]> {
    const { ListImportsCommand } = await this.sdk();
    const names: string[] = [];
    let NextToken: string | undefined;
    try {
      do {
        const page = await (
          await this.cfn()
        ).send(new ListImportsCommand({ ExportName: exportName, NextToken }));
        names.push(...(page.Imports ?? []));
        NextToken = page.NextToken;
      } while (NextToken);
    } catch (error) {
      if (awsErrorCode(error) === 'ValidationError' && /not imported/.test(String(error))) return [];
      throw error;
    }
    return names;
  }

  /**
   * Updates the stack to `template`, every parameter kept. False when CloudFormation
   * answers that there is nothing to update.
   */
  async update(
    stackName: string,
    template: TemplateSource,
    parameterKeys: readonly string[],
  ): Promise<boolean> {
    const { UpdateStackCommand } = await this.sdk();
    try {
      await (
        await this.cfn()
      ).send(
        new UpdateStackCommand({
          StackName: stackName,
          ...templateParameter(template),
          Parameters: parameterKeys.map((ParameterKey) => ({ ParameterKey, UsePreviousValue: true })),
          Capabilities: [...CAPABILITIES],
        }),
      );
      return true;
    } catch (error) {
      if (awsErrorCode(error) === 'ValidationError' && /No updates are to be performed/.test(String(error)))
        return false;
      throw error;
    }
  }

  async delete(stackName: string, retain: readonly string[] = []): Promise<void> {
    const { DeleteStackCommand } = await this.sdk();
    await (
      await this.cfn()
    ).send(
      new DeleteStackCommand({
        StackName: stackName,
        ...(retain.length > 0 ? { RetainResources: [...retain] } : {}),
      }),
    );
  }

  async createImportChangeSet(input: ImportChangeSetInput): Promise<void> {
    const { CreateChangeSetCommand } = await this.sdk();
    await (
      await this.cfn()
    ).send(
      new CreateChangeSetCommand({
        StackName: input.stackName,
        ChangeSetName: input.changeSetName,
        ChangeSetType: 'IMPORT',
        ...templateParameter(input.template),
        Parameters: Object.entries(input.parameters).map(([ParameterKey, ParameterValue]) => ({
          ParameterKey,
          ParameterValue,
        })),
        Capabilities: [...CAPABILITIES],
        ResourcesToImport: input.resources.map((resource) => ({
          LogicalResourceId: resource.logicalId,
          ResourceType: resource.type,
          ResourceIdentifier: resource.identifier,
        })),
      }),
    );
  }

  /** The change set's status and reason, or undefined when the stack holds none by the name. */
  async changeSet(
    stackName: string,
    changeSetName: string,
  ): Promise<{ status: string; executionStatus: string; reason?: string } | undefined> {
    const { DescribeChangeSetCommand } = await this.sdk();
    try {
      const answer = await (
        await this.cfn()
      ).send(new DescribeChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
      return {
        status: answer.Status ?? 'UNKNOWN',
        executionStatus: answer.ExecutionStatus ?? 'UNKNOWN',
        ...(answer.StatusReason ? { reason: answer.StatusReason } : {}),
      };
    } catch (error) {
      if (awsErrorCode(error) === 'ChangeSetNotFoundException') return undefined;
      if (awsErrorCode(error) === 'ValidationError' && /does not exist/.test(String(error))) return undefined;
      throw error;
    }
  }

  async deleteChangeSet(stackName: string, changeSetName: string): Promise<void> {
    const { DeleteChangeSetCommand } = await this.sdk();
    await (
      await this.cfn()
    ).send(new DeleteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
  }

  async executeChangeSet(stackName: string, changeSetName: string): Promise<void> {
    const { ExecuteChangeSetCommand } = await this.sdk();
    await (
      await this.cfn()
    ).send(new ExecuteChangeSetCommand({ StackName: stackName, ChangeSetName: changeSetName }));
  }
}
