import {
  APIGatewayClient,
  CreateDeploymentCommand,
  DeleteRestApiCommand,
  GetRestApiCommand,
  PutIntegrationCommand,
  PutMethodCommand,
} from '@aws-sdk/client-api-gateway';
import {
  CreateResourceCommand,
  DeleteResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveResources } from '../helpers/inventory.js';
import { useSandbox } from '../helpers/sandbox.js';
import { cloudControlClient, settle } from './helpers.js';

// Deleting a REST API deletes its deployments (and every other part), as API Gateway does,
// whichever route deletes it: a deployment kept with DeletionPolicy Retain must not outlive
// an API Cloud Control deletes.
const sandbox = useSandbox();
let cc: CloudControlClient;
let apigw: APIGatewayClient;

beforeAll(() => {
  cc = cloudControlClient(sandbox.current);
  apigw = new APIGatewayClient({ region: 'us-east-1', maxAttempts: 1 });
});
afterAll(() => {
  cc.destroy();
  apigw.destroy();
});

async function ccDo(command: CreateResourceCommand | DeleteResourceCommand): Promise<string> {
  const accepted = await cc.send(command as CreateResourceCommand);
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
  return event.Identifier!;
}

async function apiWithDeployment(name: string): Promise<string> {
  const restApiId = await ccDo(
    new CreateResourceCommand({
      TypeName: 'AWS::ApiGateway::RestApi',
      DesiredState: JSON.stringify({ Name: name }),
    }),
  );
  const { rootResourceId: resourceId } = await apigw.send(new GetRestApiCommand({ restApiId }));
  const method = { restApiId, resourceId, httpMethod: 'GET' };
  await apigw.send(new PutMethodCommand({ ...method, authorizationType: 'NONE' }));
  await apigw.send(new PutIntegrationCommand({ ...method, type: 'MOCK' }));
  await apigw.send(new CreateDeploymentCommand({ restApiId }));
  expect(await deploymentsOf(restApiId)).toHaveLength(1);
  return restApiId;
}

/** The deployments of the API the sandbox holds, as its inventory lists them (`deployment|api`). */
async function deploymentsOf(restApiId: string): Promise<string[]> {
  return (await liveResources(sandbox.current.url))
    .filter(
      (resource) => resource.type === 'AWS::ApiGateway::Deployment' && resource.id.endsWith(`|${restApiId}`),
    )
    .map((resource) => resource.id);
}

describe("a REST API's deletion", () => {
  it("takes its deployments with it through Cloud Control's DeleteResource", async () => {
    const restApiId = await apiWithDeployment('by-cloud-control');
    await ccDo(new DeleteResourceCommand({ TypeName: 'AWS::ApiGateway::RestApi', Identifier: restApiId }));
    expect(await deploymentsOf(restApiId)).toEqual([]);
  });

  it("takes its deployments with it through API Gateway's DeleteRestApi", async () => {
    const restApiId = await apiWithDeployment('by-api-gateway');
    await apigw.send(new DeleteRestApiCommand({ restApiId }));
    expect(await deploymentsOf(restApiId)).toEqual([]);
  });
});
