import type { DescribeTypeAnswer } from '../aws/describe-type.js';
import { indexSource, parseRegistrySchema, type RegistryAnswer } from '../plan/index.js';

export type DescribeType = (region: string, type: string) => Promise<DescribeTypeAnswer>;

/** Where a warning about the registry goes: the stack whose plan asked. */
export type RegistryWarn = (stackName: string, message: string) => void;

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
  ): Promise<Map<string, RegistryAnswer>> {
    const entries = await Promise.all(
      types.map(async (type) => [type, await this.answer(stack, type)] as const),
    );
    return new Map(entries);
  }

  private answer(stack: { stackName: string; region: string }, type: string): Promise<RegistryAnswer> {
    const key = `${stack.region}|${type}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.ask(stack, type);
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async ask(stack: { stackName: string; region: string }, type: string): Promise<RegistryAnswer> {
    if (this.denied) return { kind: 'unavailable' };
    const answer = await this.describeType(stack.region, type);
    switch (answer.kind) {
      case 'schema': {
        const schema = parseRegistrySchema(answer.schema);
        if (schema) return { kind: 'schema', schema };
        this.warn(
          stack.stackName,
          `cloudformation:DescribeType returned a schema for ${type} that cdkd cannot read: its replacement verdicts come from the bundled schema index.`,
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
            `cloudformation:DescribeType is not allowed (${answer.code}): replacement verdicts come from cdkd's bundled schema index (${indexSource()}), and a change to a type it does not know is planned in place. Allow cloudformation:DescribeType to read them from the CloudFormation registry.`,
          );
        }
        return { kind: 'unavailable' };
      case 'failed':
        this.warn(
          stack.stackName,
          `cloudformation:DescribeType for ${type} failed (${answer.message}): its replacement verdicts come from the bundled schema index.`,
        );
        return { kind: 'unavailable' };
    }
  }
}
