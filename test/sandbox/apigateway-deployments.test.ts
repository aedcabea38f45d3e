import {
  CreateResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
} from '@aws-sdk/client-cloudcontrol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../assembly/helpers.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { cloudControlClient, settle } from './helpers.js';

// A REST API answers from its stage's deployment, as on AWS: a change to a method reaches
// callers only once a new deployment is made and the stage points at it.
const dataDir = tempDir();
let sandbox: Sandbox;
let cc: CloudControlClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataDir });
  cc = cloudControlClient(sandbox);
});
afterAll(async () => {
  cc.destroy();
  await sandbox.stop();
});

async function create(type: string, desired: Record<string, unknown>): Promise<Record<string, unknown>> {
  const accepted = await cc.send(
    new CreateResourceCommand({ TypeName: type, DesiredState: JSON.stringify(desired) }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
  return model(type, event.Identifier!);
}

async function model(type: string, identifier: string): Promise<Record<string, unknown>> {
  const output = await cc.send(new GetResourceCommand({ TypeName: type, Identifier: identifier }));
  return JSON.parse(output.ResourceDescription!.Properties!) as Record<string, unknown>;
}

async function update(type: string, identifier: string, patch: unknown[]): Promise<void> {
  const accepted = await cc.send(
    new UpdateResourceCommand({
      TypeName: type,
      Identifier: identifier,
      PatchDocument: JSON.stringify(patch),
    }),
  );
  const { event } = await settle(cc, accepted.ProgressEvent!);
  expect(event.OperationStatus, event.StatusMessage).toBe('SUCCESS');
}

const mockAnswering = (body: string) => ({
  Type: 'MOCK',
  RequestTemplates: { 'application/json': '{"statusCode": 200}' },
  IntegrationResponses: [{ StatusCode: '200', ResponseTemplates: { 'application/json': body } }],
});

async function call(apiId: string, stage: string, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${sandbox.url}/restapis/${apiId}/${stage}/_user_request_${path}`);
  return { status: response.status, body: await response.text() };
}

describe('a REST API stage answers from its deployment', () => {
  it('keeps answering as deployed until a new deployment reaches the stage, after a restart too', async () => {
    const api = await create('AWS::ApiGateway::RestApi', { Name: 'frozen' });
    const apiId = String(api.RestApiId);
    expect(apiId).toMatch(/^[a-z0-9]{10}$/);
    const resource = await create('AWS::ApiGateway::Resource', {
      RestApiId: apiId,
      ParentId: api.RootResourceId,
      PathPart: 'hello',
    });
    await create('AWS::ApiGateway::Method', {
      RestApiId: apiId,
      ResourceId: resource.ResourceId,
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: mockAnswering('{"version": 1}'),
    });
    const first = await create('AWS::ApiGateway::Deployment', { RestApiId: apiId });
    await create('AWS::ApiGateway::Stage', {
      RestApiId: apiId,
      StageName: 'live',
      DeploymentId: first.DeploymentId,
    });
    expect(await call(apiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });

    const methodId = `${apiId}|${String(resource.ResourceId)}|GET`;
    await update('AWS::ApiGateway::Method', methodId, [
      { op: 'replace', path: '/Integration', value: mockAnswering('{"version": 2}') },
    ]);
    expect(await call(apiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });

    await sandbox.stop();
    sandbox = await startSandbox({ port: 0, dataDir });
    cc.destroy();
    cc = cloudControlClient(sandbox);
    expect(await call(apiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });

    const second = await create('AWS::ApiGateway::Deployment', { RestApiId: apiId });
    expect(await call(apiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 1}' });
    await update('AWS::ApiGateway::Stage', `${apiId}|live`, [
      { op: 'replace', path: '/DeploymentId', value: second.DeploymentId },
    ]);
    expect(await call(apiId, 'live', '/hello')).toEqual({ status: 200, body: '{"version": 2}' });
  });

  it('answers 403 Forbidden for a stage the API does not have, and for an unknown path its Missing Authentication Token', async () => {
    const api = await create('AWS::ApiGateway::RestApi', { Name: 'stages' });
    const apiId = String(api.RestApiId);
    await create('AWS::ApiGateway::Method', {
      RestApiId: apiId,
      ResourceId: api.RootResourceId,
      HttpMethod: 'GET',
      AuthorizationType: 'NONE',
      Integration: mockAnswering('{}'),
    });
    await create('AWS::ApiGateway::Deployment', { RestApiId: apiId, StageName: 'dev' });
    expect(await call(apiId, 'dev', '/')).toEqual({ status: 200, body: '{}' });
    expect(await call(apiId, 'prod', '/')).toEqual({ status: 403, body: '{"message":"Forbidden"}' });
    expect(await call(apiId, 'dev', '/nothing')).toEqual({
      status: 403,
      body: '{"message":"Missing Authentication Token"}',
    });
    const unknown = await fetch(`${sandbox.url}/restapis/nosuchapi0/dev/_user_request_/`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      message: "No API with id 'nosuchapi0' is deployed on this sandbox.",
    });
  });
});
