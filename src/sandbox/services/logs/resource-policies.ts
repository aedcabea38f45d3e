import { randomUUID } from 'node:crypto';
import { optionalString, requiredString } from '../../protocols/json.js';
import { HandlerError, type ResourceHandler } from '../../resources.js';
import { DocumentMap } from '../../storage/document-map.js';
import type { Storage } from '../../storage/storage.js';
import { logsErrors } from './logs-errors.js';

/** An account may hold this many account-level resource policies per region. */
const POLICIES_PER_REGION = 10;

interface PolicyRecord {
  region: string;
  policyName: string;
  policyDocument: string;
  lastUpdatedTime: number;
  revisionId: string;
}

type Input = Record<string, unknown>;

/**
 * CloudWatch Logs' account-level resource policies (what lets EventBridge, Route 53 and
 * OpenSearch write to log groups), also AWS::Logs::ResourcePolicy for Cloud Control.
 */
export class ResourcePolicies {
  private constructor(private readonly policies: DocumentMap<PolicyRecord>) {}

  static async load(storage: Storage): Promise<ResourcePolicies> {
    return new ResourcePolicies(await DocumentMap.load<PolicyRecord>(storage, 'logs/resource-policies'));
  }

  private inRegion(region: string): PolicyRecord[] {
    return this.policies.values().filter((policy) => policy.region === region);
  }

  async put(region: string, input: Input): Promise<unknown> {
    const policyName = requiredString(input, 'policyName', 'InvalidParameterException');
    const policyDocument = requiredString(input, 'policyDocument', 'InvalidParameterException');
    try {
      JSON.parse(policyDocument);
    } catch {
      throw logsErrors.invalidParameter('Policy document is not valid JSON.');
    }
    const id = `${region}/${policyName}`;
    if (!this.policies.get(id) && this.inRegion(region).length >= POLICIES_PER_REGION) {
      throw logsErrors.limitExceeded('Resource limit exceeded.');
    }
    const record = {
      region,
      policyName,
      policyDocument,
      lastUpdatedTime: Date.now(),
      revisionId: randomUUID(),
    };
    await this.policies.put(id, record);
    return { resourcePolicy: view(record), revisionId: record.revisionId };
  }

  async delete(region: string, input: Input): Promise<unknown> {
    const policyName = optionalString(input, 'policyName') ?? '';
    const id = `${region}/${policyName}`;
    if (!this.policies.get(id)) {
      throw logsErrors.policyNotFound(policyName);
    }
    await this.policies.delete(id);
    return {};
  }

  describe(region: string): unknown {
    return { resourcePolicies: this.inRegion(region).map(view) };
  }

  all(): Array<{ id: string; region: string }> {
    return this.policies.values().map((policy) => ({ id: policy.policyName, region: policy.region }));
  }

  /** AWS::Logs::ResourcePolicy, identified by its PolicyName. */
  resourceHandler(): ResourceHandler {
    const model = (record: PolicyRecord) => ({
      PolicyName: record.policyName,
      PolicyDocument: record.policyDocument,
    });
    const write = async (region: string, desired: Record<string, unknown>) => {
      const document = desired.PolicyDocument;
      try {
        await this.put(region, {
          policyName: desired.PolicyName,
          policyDocument: typeof document === 'string' ? document : JSON.stringify(document),
        });
      } catch (error) {
        throw new HandlerError('InvalidRequest', (error as Error).message);
      }
      return model(this.policies.get(`${region}/${String(desired.PolicyName)}`)!);
    };
    return {
      create: async (desired, region) => {
        if (this.policies.get(`${region}/${String(desired.PolicyName)}`)) {
          throw new HandlerError(
            'AlreadyExists',
            `Resource policy ${String(desired.PolicyName)} already exists`,
          );
        }
        return { identifier: String(desired.PolicyName), model: await write(region, desired) };
      },
      read: (identifier, region) => {
        const record = this.policies.get(`${region}/${identifier}`);
        return record && model(record);
      },
      update: (identifier, desired, region) => write(region, { ...desired, PolicyName: identifier }),
      delete: async (identifier, region) => {
        if (!this.policies.get(`${region}/${identifier}`)) {
          throw new HandlerError('NotFound', `Resource policy ${identifier} not found`);
        }
        await this.policies.delete(`${region}/${identifier}`);
      },
      list: (region) =>
        this.inRegion(region).map((record) => ({ identifier: record.policyName, model: model(record) })),
    };
  }
}

function view(record: PolicyRecord): Record<string, unknown> {
  return {
    policyName: record.policyName,
    policyDocument: record.policyDocument,
    lastUpdatedTime: record.lastUpdatedTime,
    policyScope: 'ACCOUNT',
    revisionId: record.revisionId,
  };
}
