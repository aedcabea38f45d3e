import type { DescribeTypeAnswer } from '../aws/index.js';
import { parseRegistrySchema, type RegistryAnswer } from '../plan/index.js';
import { indexSource } from '../resource-types/index.js';

export type DescribeType = (region: string, type: string) => Promise<DescribeTypeAnswer>;

/** Where a warning about the registry goes: the stack whose plan asked. */
export type RegistryWarn = (stackName: string, message: string) => void;

/** What the schema is read for: a plan's replacement verdicts, or drift's write-only properties. */
export type RegistryUse = 'plan' | 'drift';

/** What cdkd does without the registry's schema, for `use`, said after "DescribeType ...:". */
const WITHOUT_SCHEMA: Record<RegistryUse, { type: string; denied: string }> = {
  plan: {
    type: 'its replacement verdicts come from the bundled schema index.',
    denied: `replacement verdicts come from cdkd's bundled schema index (INDEX), and a change to a type it does not know is planned in place.`,
  },
  drift: {
    type: 'drift passes over only the write-only properties its SDK provider names.',
    denied:
      'drift passes over only the write-only properties an SDK provider names for the type, so a Cloud Control type may show write-only properties as drifted.',
  },
};

/**
 * The CloudFormation registry's replacement verdicts for one run (spec 002, "When the
 * auto-route needs a recreate"): one DescribeType per type and region, shared by every stack
 * and re-plan of the run. A denied call is warned about once, and after it the run asks no
 * more; the planner then reads the bundled schema index.
 */
export class RegistrySchemas {
  private readonly answers = new Map<string, Promise<RegistryAnswer>>();
  private denied = false;

  constructor(
    private readonly describeType: DescribeType,
    private readonly warn: RegistryWarn,
  ) {}

  /** The answers for `types`, asking the registry only about those not asked before. */
  async forTypes(
    stack: { stackName: string; region: string },
    types: readonly string[],
    use: RegistryUse = 'plan',
  ): Promise<Map<string, RegistryAnswer>> {
    const entries = await Promise.all(
      types.map(async (type) => [type, await this.answer(stack, type, use)] as const),
    );
    return new Map(entries);
  }

  private answer(
    stack: { stackName: string; region: string },
    type: string,
    use: RegistryUse,
  ): Promise<RegistryAnswer> {
    const key = `${stack.region}|${type}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.ask(stack, type, WITHOUT_SCHEMA[use]);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async ask(
    stack: { stackName: string; region: string },
    type: string,
    without: { type: string; denied: string },
  ): Promise<RegistryAnswer> {
    if (this.denied) return { kind: 'unavailable' };
    const answer = await this.describeType(stack.region, type);
    switch (answer.kind) {
      case 'schema': {
        const schema = parseRegistrySchema(answer.schema);
        if (schema) return { kind: 'schema', schema };
        this.warn(
          stack.stackName,
          `cloudformation:DescribeType returned a schema for ${type} that cdkd cannot read: ${without.type}`,
        );
        return { kind: 'unavailable' };
      }
      case 'type-not-found':
        return answer;
      case 'denied':
        if (!this.denied) {
          this.denied = true;
          this.warn(
            stack.stackName,
            `cloudformation:DescribeType is not allowed (${answer.code}): ${without.denied.replace('INDEX', indexSource())} Allow cloudformation:DescribeType to read types' schemas from the CloudFormation registry.`,
          );
        }
        return { kind: 'unavailable' };
      case 'failed':
        this.warn(
          stack.stackName,
          `cloudformation:DescribeType for ${type} failed (${answer.message}): ${without.type}`,
        );
        return { kind: 'unavailable' };
    }
  }
}
