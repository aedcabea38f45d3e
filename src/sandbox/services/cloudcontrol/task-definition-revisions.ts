import { createHash } from 'node:crypto';
import type { Storage } from '../../storage/storage.js';

const NAMESPACE = 'cloudcontrol/task-definition-revisions';

/** A family's highest revision handed out, as kept on storage. */
interface RevisionDoc {
  accountId: string;
  region: string;
  family: string;
  highest: number;
}

const TASK_DEFINITION_ARN = /^arn:[^:]+:ecs:([^:]+):(\d{12}):task-definition\/([^:]+):(\d+)$/;

/**
 * ECS numbers a family's task definitions 1, 2, 3 ... and never hands a number out again, even
 * once its revision is deregistered or deleted. The highest number per account, region and
 * family is written through to storage, so a sandbox restarted on its data dir carries on.
 */
export class TaskDefinitionRevisions {
  private readonly highest = new Map<string, RevisionDoc>();
  private readonly writing = new Set<Promise<void>>();

  private constructor(private readonly storage: Storage) {}

  /**
   * The numbers on storage, raised to the revisions of `arns` (the task definitions held: a
   * data dir written before the numbers were kept holds only those), the raised ones saved.
   */
  static async load(storage: Storage, arns: readonly string[]): Promise<TaskDefinitionRevisions> {
    const revisions = new TaskDefinitionRevisions(storage);
    for (const { doc } of await storage.listDocuments<RevisionDoc>(NAMESPACE))
      revisions.highest.set(keyOf(doc), doc);
    for (const arn of arns) {
      const [, region = '', accountId = '', family = '', revision = '0'] =
        TASK_DEFINITION_ARN.exec(arn) ?? [];
      const highest = Number(revision);
      if (highest > (revisions.highest.get(keyOf({ accountId, region, family }))?.highest ?? 0))
        revisions.save({ accountId, region, family, highest });
    }
    await revisions.saved();
    return revisions;
  }

  /** The family's next revision; counted at once, so concurrent registrations get distinct ones. */
  next(accountId: string, region: string, family: string): number {
    const highest = (this.highest.get(keyOf({ accountId, region, family }))?.highest ?? 0) + 1;
    this.save({ accountId, region, family, highest });
    return highest;
  }

  /** Resolves once every number handed out is on storage. */
  async saved(): Promise<void> {
    await Promise.all(this.writing);
  }

  private save(doc: RevisionDoc): void {
    const key = keyOf(doc);
    this.highest.set(key, doc);
    const write = this.storage.putDocument(NAMESPACE, key, doc);
    this.writing.add(write);
    const done = () => void this.writing.delete(write);
    write.then(done, done);
  }
}

const keyOf = ({ accountId, region, family }: Pick<RevisionDoc, 'accountId' | 'region' | 'family'>) =>
  createHash('sha256').update(`${accountId}\n${region}\n${family}`).digest('hex').slice(0, 40);
