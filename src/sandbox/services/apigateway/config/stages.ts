import { isRecord } from '../../../../http-events/payload-v2.js';
import type { ResourceModel } from '../../../resources.js';
import type { DeploymentSnapshots } from './deployments.js';
import { HTTP_TYPES, REST_TYPES, type ApiConfigReader, type ApiKind } from './reader.js';

/** A stage as requests see it: its deployment (unless it follows the API's changes) and variables. */
export interface StageView {
  name: string;
  deploymentId?: string;
  /** An HTTP API stage with AutoDeploy answers from the API as it is now. */
  autoDeploy: boolean;
  variables: Record<string, string>;
}

/**
 * An API's stages: REST APIs' Stage resources (and a Deployment's own `StageName`), HTTP
 * APIs' Stage resources.
 */
export function stagesOf(reader: ApiConfigReader, kind: ApiKind, region: string, apiId: string): StageView[] {
  if (kind === 'http') {
    return reader.partsOf(HTTP_TYPES.stage, kind, region, apiId).map((stage) => ({
      name: String(stage.StageName ?? ''),
      ...(typeof stage.DeploymentId === 'string' ? { deploymentId: stage.DeploymentId } : {}),
      autoDeploy: stage.AutoDeploy === true,
      variables: stringMap(stage.StageVariables),
    }));
  }
  const stages: StageView[] = reader.partsOf(REST_TYPES.stage, kind, region, apiId).map((stage) => ({
    name: String(stage.StageName ?? ''),
    ...(typeof stage.DeploymentId === 'string' ? { deploymentId: stage.DeploymentId } : {}),
    autoDeploy: false,
    variables: stringMap(stage.Variables),
  }));
  for (const deployment of reader.partsOf(REST_TYPES.deployment, kind, region, apiId)) {
    if (
      typeof deployment.StageName !== 'string' ||
      stages.some((stage) => stage.name === deployment.StageName)
    ) {
      continue;
    }
    const description = isRecord(deployment.StageDescription) ? deployment.StageDescription : {};
    stages.push({
      name: deployment.StageName,
      deploymentId: String(deployment.DeploymentId ?? ''),
      autoDeploy: false,
      variables: stringMap(description.Variables),
    });
  }
  return stages;
}

/**
 * The parts (by type) a stage answers from: its deployment's snapshot, or the API as it is
 * now for an auto-deployed stage or a deployment made before snapshots were kept.
 */
export function deployedParts(
  reader: ApiConfigReader,
  snapshots: DeploymentSnapshots,
  kind: ApiKind,
  region: string,
  apiId: string,
  stage: StageView,
  types: readonly string[],
): Record<string, ResourceModel[]> {
  const snapshot =
    !stage.autoDeploy && stage.deploymentId ? snapshots.get(region, apiId, stage.deploymentId) : undefined;
  if (snapshot) return snapshot.parts;
  return Object.fromEntries(types.map((type) => [type, reader.partsOf(type, kind, region, apiId)]));
}

function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, String(item)]));
}
