import { SandboxError } from '../../errors.js';
import type { ResourceModel } from '../../resources.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { restJsonApiModule, type ApiCall } from '../api-module.js';

const CANARY = 'AWS::Synthetics::Canary';

/**
 * Synthetics canaries over REST-JSON, read from Cloud Control's store for
 * AWS::Synthetics::Canary. The sandbox runs no canary, so its engine (the Lambda function
 * AWS makes for it) is named but never made.
 */
export const createSyntheticsService: ServiceModuleFactory = async (context) => {
  const store = () => context.resources.resolve(CANARY)!;
  const find = ({ labels, region, accountId }: ApiCall): ResourceModel => {
    const model = store().read(labels.Name!, region, accountId);
    if (!model)
      throw new SandboxError('ResourceNotFoundException', `Canary ${labels.Name} does not exist.`, 404);
    return model;
  };
  const view = (model: ResourceModel, { region, accountId }: ApiCall) => {
    const name = String(model.Name);
    return {
      Id: String(model.Id ?? name),
      Name: name,
      Code: model.Code,
      ExecutionRoleArn: model.ExecutionRoleArn,
      Schedule: model.Schedule,
      RunConfig: model.RunConfig,
      SuccessRetentionPeriodInDays: model.SuccessRetentionPeriod,
      FailureRetentionPeriodInDays: model.FailureRetentionPeriod,
      Status: { State: model.StartCanaryAfterCreation === true ? 'RUNNING' : 'READY' },
      ArtifactS3Location: model.ArtifactS3Location,
      EngineArn: `arn:aws:lambda:${region}:${accountId}:function:cwsyn-${name}-${String(model.Id ?? name).slice(0, 8)}`,
      RuntimeVersion: model.RuntimeVersion,
      Tags: Object.fromEntries(
        ((model.Tags as Array<{ Key: string; Value: string }>) ?? []).map((tag) => [tag.Key, tag.Value]),
      ),
    };
  };
  return restJsonApiModule({
    name: 'synthetics',
    routes: [
      { method: 'GET', path: '/canary/{Name}', operation: 'GetCanary' },
      { method: 'DELETE', path: '/canary/{Name}', operation: 'DeleteCanary' },
    ],
    handlers: {
      GetCanary: (call) => ({ Canary: view(find(call), call) }),
      DeleteCanary: async (call) => {
        find(call);
        await store().delete(call.labels.Name!, call.region, call.accountId);
        return {};
      },
    },
  });
};
