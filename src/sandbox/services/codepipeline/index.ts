import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule } from '../api-module.js';

const PIPELINE = 'AWS::CodePipeline::Pipeline';

/**
 * CodePipeline's state calls over JSON 1.1, on pipelines in Cloud Control's store. The
 * sandbox runs no pipeline, so no stage has an execution and no approval is waiting.
 */
export const createCodePipelineService: ServiceModuleFactory = async (context) => {
  const pipeline = (name: string, region: string, accountId: string) => {
    const model = context.resources.resolve(PIPELINE)!.read(name, region, accountId);
    if (!model)
      throw new SandboxError(
        'PipelineNotFoundException',
        `Account '${accountId}' does not have a pipeline with name '${name}'`,
        400,
      );
    return model;
  };
  return jsonApiModule({
    name: 'codepipeline',
    version: '1.1',
    target: 'CodePipeline_20150709',
    handlers: {
      GetPipelineState: ({ input, region, accountId }) => {
        const name = requiredString(input, 'name', 'ValidationException');
        const stages =
          (pipeline(name, region, accountId).Stages as Array<{
            Name: string;
            Actions?: Array<{ Name: string }>;
          }>) ?? [];
        return {
          pipelineName: name,
          pipelineVersion: 1,
          stageStates: stages.map((stage) => ({
            stageName: stage.Name,
            inboundTransitionState: { enabled: true },
            actionStates: (stage.Actions ?? []).map((action) => ({ actionName: action.Name })),
          })),
        };
      },
      PutApprovalResult: ({ input, region, accountId }) => {
        pipeline(requiredString(input, 'pipelineName', 'ValidationException'), region, accountId);
        throw new SandboxError(
          'InvalidApprovalTokenException',
          'The approval action has no approval request waiting for the given token.',
          400,
        );
      },
    },
  });
};
