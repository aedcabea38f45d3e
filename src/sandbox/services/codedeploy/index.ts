import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { jsonApiModule } from '../api-module.js';

const CONFIG = 'AWS::CodeDeploy::DeploymentConfig';
const NAME = /^[\w.-]{1,100}$/;

/** CodeDeploy deployment configurations over JSON 1.1, on Cloud Control's store for AWS::CodeDeploy::DeploymentConfig. */
export const createCodeDeployService: ServiceModuleFactory = async (context) => {
  const store = () => context.resources.resolve(CONFIG)!;
  const nameOf = (input: Record<string, unknown>) => {
    const name = requiredString(input, 'deploymentConfigName', 'DeploymentConfigNameRequiredException');
    if (!NAME.test(name))
      throw new SandboxError('InvalidDeploymentConfigNameException', `${name} is not a valid name.`, 400);
    if (name.startsWith('CodeDeployDefault.')) {
      throw new SandboxError(
        'InvalidOperationException',
        `${name} is a predefined configuration and cannot be changed.`,
        400,
      );
    }
    return name;
  };
  return jsonApiModule({
    name: 'codedeploy',
    version: '1.1',
    target: 'CodeDeploy_20141006',
    handlers: {
      CreateDeploymentConfig: async ({ input, region, accountId }) => {
        const name = nameOf(input);
        if (store().read(name, region, accountId)) {
          throw new SandboxError(
            'DeploymentConfigAlreadyExistsException',
            `Deployment config ${name} already exists.`,
            400,
          );
        }
        const entry = await store().create(
          {
            DeploymentConfigName: name,
            ComputePlatform: input.computePlatform ?? 'Server',
            ...(input.minimumHealthyHosts !== undefined && {
              MinimumHealthyHosts: pascal(input.minimumHealthyHosts),
            }),
            ...(input.trafficRoutingConfig !== undefined && {
              TrafficRoutingConfig: pascal(input.trafficRoutingConfig),
            }),
          },
          region,
          accountId,
        );
        return { deploymentConfigId: String(entry.model.Id ?? entry.identifier) };
      },
      GetDeploymentConfig: ({ input, region, accountId }) => {
        const name = requiredString(input, 'deploymentConfigName', 'DeploymentConfigNameRequiredException');
        const model = store().read(name, region, accountId);
        if (!model)
          throw new SandboxError(
            'DeploymentConfigDoesNotExistException',
            `Deployment config ${name} does not exist.`,
            400,
          );
        return {
          deploymentConfigInfo: { deploymentConfigName: name, computePlatform: model.ComputePlatform },
        };
      },
      // Deleting a configuration that does not exist succeeds, as on AWS.
      DeleteDeploymentConfig: async ({ input, region, accountId }) => {
        const name = nameOf(input);
        if (store().read(name, region, accountId)) await store().delete(name, region, accountId);
        return {};
      },
    },
  });
};

/** The API's camelCase members as the CloudFormation model's PascalCase ones. */
function pascal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(pascal);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key.charAt(0).toUpperCase() + key.slice(1), pascal(inner)]),
  );
}
