import { parseDocument } from './documents/document-reader.js';
import { GENERATION_DOCUMENT, type GenerationDocument } from './documents/generation-document.js';
import { stackStateKeys } from './keys.js';
import type { S3Objects } from './s3-objects.js';
import type { StackRef } from './state-store.js';

/** The fields a deploy gives; the store adds the stack, the number and the time. */
export type NewGeneration = Omit<
  GenerationDocument,
  'version' | 'stackName' | 'region' | 'number' | 'deployedAt'
>;

/** One version of a stack's `generation.json` the bucket keeps. */
export interface KeptGeneration {
  versionId: string;
  storedAt: Date;
  /** The document; undefined when it cannot be read (`problem` says why). */
  document?: GenerationDocument;
  problem?: string;
}

/**
 * A stack's generations: each successful deploy writes `generation.json` whole, and the state
 * bucket's versioning keeps the earlier ones (as many as the lifecycle rule bootstrap set keeps).
 * Written under the stack's lock, after the deploy's last state save.
 */
export class GenerationStore {
  constructor(
    private readonly objects: S3Objects,
    readonly prefix: string,
  ) {}

  location(stack: StackRef): string {
    return this.objects.location(this.key(stack));
  }

  /** The newest generation, or undefined when the stack has none recorded. */
  async latest(stack: StackRef): Promise<GenerationDocument | undefined> {
    const key = this.key(stack);
    const stored = await this.objects.get(key);
    return stored ? parseDocument(GENERATION_DOCUMENT, this.objects.location(key), stored.text) : undefined;
  }

  /** Records a successful deploy as the stack's next generation; answers what was written. */
  async record(
    stack: StackRef,
    generation: NewGeneration,
    at: Date = new Date(),
  ): Promise<GenerationDocument> {
    // An unreadable newest generation does not stop a deploy: numbering goes on from the versions kept.
    const previous = await this.latest(stack).catch(async () => undefined);
    const number = previous ? previous.number + 1 : (await this.highestKept(stack)) + 1;
    const document: GenerationDocument = {
      version: 1,
      stackName: stack.stackName,
      region: stack.region,
      number,
      deployedAt: at.toISOString(),
      ...generation,
    };
    await this.objects.put(this.key(stack), JSON.stringify(document));
    return document;
  }

  /** Every generation the bucket keeps, newest first, each read (an unreadable one says why). */
  async list(stack: StackRef): Promise<KeptGeneration[]> {
    const key = this.key(stack);
    const versions = await this.objects.listVersions(key);
    return Promise.all(
      versions.map(async (version): Promise<KeptGeneration> => {
        const base = { versionId: version.versionId, storedAt: version.lastModified };
        const stored = await this.objects.getVersion(key, version.versionId);
        if (!stored) return { ...base, problem: 'expired while being read' };
        try {
          const location = `${this.objects.location(key)}?versionId=${version.versionId}`;
          return { ...base, document: parseDocument(GENERATION_DOCUMENT, location, stored.text) };
        } catch (error) {
          return { ...base, problem: (error as Error).message };
        }
      }),
    );
  }

  private async highestKept(stack: StackRef): Promise<number> {
    const kept = await this.list(stack);
    return Math.max(0, ...kept.map((generation) => generation.document?.number ?? 0));
  }

  private key(stack: StackRef): string {
    return stackStateKeys(this.prefix, stack.stackName, stack.region).generation;
  }
}
