import { httpStatusOf } from '../../aws/error-class.js';
import { ParentPolicyProvider, type ParentPolicyAccess } from '../parent-policy.js';
import { tokenPhysicalName } from '../physical-names.js';
import { jsonText, stringList } from '../property-values.js';
import type {
  CreateResult,
  CreationIdentity,
  DeleteReport,
  DeleteRequest,
  MadeDelete,
  ProviderContext,
  ResourceRequest,
} from '../provider.js';
import { MadeByAttempts } from '../resource-made.js';
import { samePolicy } from './equivalent-policies.js';

export interface MadePolicyAccess extends ParentPolicyAccess {
  /** The parent's policy as the service returns it, its own default included; undefined when none or gone. */
  readLive(parent: string, context: ProviderContext): Promise<string | undefined>;
  /** The policy the service itself keeps on a parent holding none of ours (SNS's default topic policy). */
  servicePolicy?(parent: string, context: ProviderContext): string;
}

/**
 * The creation identity field naming the parents a failed create wrote, as JSON text: the
 * journal's made record keeps the identity as the provider gave it, while its properties
 * name every parent the create attempted.
 */
const WRITTEN_TO = 'writtenTo';

/**
 * A parent policy whose failed create is undone only where it still holds (spec 000,
 * "Failed CREATEs that made their resource"): a create that wrote some parents and then
 * failed reports them made, and its delete clears a parent only while the parent's policy
 * still matches the attempted document.
 */
export class MadePolicyProvider extends ParentPolicyProvider {
  private readonly attempts = new MadeByAttempts();

  constructor(private readonly policies: MadePolicyAccess) {
    super(policies);
  }

  /**
   * The made record names exactly the parents written, by this attempt or an earlier one of
   * the same create, plus one whose write failed without a service answer (it may have applied).
   */
  override async create(request: ResourceRequest, context: ProviderContext): Promise<CreateResult> {
    const token = request.idempotencyToken;
    const earlier = this.attempts.get(token);
    const id = earlier?.physicalId ?? tokenPhysicalName(context.stackName, request, { maxLength: 255 });
    const written = new Set(writtenTo(earlier?.creationIdentity));
    const policy = jsonText(request.properties.PolicyDocument);
    for (const parent of this.parentsIn(request.properties)) {
      try {
        await this.policies.write(parent, policy, context);
      } catch (error) {
        const status = httpStatusOf(error);
        if (status === undefined || status >= 500) written.add(parent);
        if (written.size === 0) throw error;
        const creationIdentity = { [WRITTEN_TO]: JSON.stringify([...written]) };
        throw this.attempts.failed(token, { physicalId: id, creationIdentity }, error);
      }
      written.add(parent);
    }
    this.attempts.forget(token);
    return { physicalId: id, attributes: this.policies.attributesOf(id) };
  }

  async deleteMade(
    request: DeleteRequest,
    made: MadeDelete,
    context: ProviderContext,
  ): Promise<DeleteReport> {
    const recorded = writtenTo(made.creationIdentity);
    const parents = recorded.length > 0 ? recorded : this.parentsIn(request.properties);
    const attempted = await made.attempted();
    const document = 'properties' in attempted ? attempted.properties.PolicyDocument : undefined;
    if (document === undefined) {
      const reason = 'unusable' in attempted ? attempted.unusable : 'the journal holds no attempted document';
      return { left: parents.map((target) => ({ target, reason })) };
    }
    const left: DeleteReport['left'] = [];
    const justWritten = new Set(
      (made.appliedByThisDeploy ?? []).flatMap((applied) => this.parentsIn(applied)),
    );
    for (const parent of parents) {
      if (justWritten.has(parent)) {
        left.push({ target: parent, reason: 'a policy this deploy wrote is on it now' });
        continue;
      }
      const live = await this.policies.readLive(parent, context);
      const own = this.policies.servicePolicy?.(parent, context);
      if (live !== undefined && own !== undefined && samePolicy(live, own)) continue;
      if (live === undefined || samePolicy(live, document)) await this.policies.remove(parent, context);
      else left.push({ target: parent, reason: 'its policy was replaced by a different one' });
    }
    return { left };
  }

  private parentsIn(properties: Record<string, unknown>): string[] {
    return stringList(properties[this.policies.parentsProperty]);
  }
}

function writtenTo(identity: CreationIdentity | undefined): string[] {
  const text = identity?.[WRITTEN_TO];
  if (typeof text !== 'string') return [];
  try {
    return stringList(JSON.parse(text));
  } catch {
    return [];
  }
}
