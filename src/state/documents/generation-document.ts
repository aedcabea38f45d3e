import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';

/** An object in cdkd's asset bucket a deployed template reads (a Lambda zip, a nested template). */
export const assetObjectSchema = z.object({ bucket: z.string().min(1), key: z.string().min(1) });

/** An image in one of cdkd's repositories a deployed template reads. */
export const assetImageSchema = z.object({ repository: z.string().min(1), tag: z.string().min(1) });

/**
 * What one successful deploy of a stack made it from, whole: the template as deployed (asset
 * references already pointing at cdkd's bucket), the parameters (NoEcho masked, as state keeps
 * them), tags, termination protection, and the assets the template reads. Written once per
 * successful deploy beside `state.json`, whose own versions are per-resource saves, so the
 * versions of this object are the stack's generations: what `cdkd undo` deploys again and
 * what `cdkd gc` keeps.
 */
export const generationDocumentSchema = z.object({
  version: z.literal(1),
  stackName: z.string().min(1),
  region: z.string().min(1),
  /** 1 for the first recorded deploy, one more for each after it. */
  number: z.number().int().min(1),
  deployedAt: z.string(),
  /** `undo`: this generation put the stack back to generation `undoneTo`. */
  source: z.enum(['deploy', 'undo']),
  undoneTo: z.number().int().min(1).optional(),
  template: z.record(z.string(), z.unknown()),
  parameters: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  tags: z.record(z.string(), z.string()).default({}),
  terminationProtection: z.literal(true).optional(),
  assets: z.array(assetObjectSchema).default([]),
  images: z.array(assetImageSchema).default([]),
  /** What the deploy did, as counted in its plan. */
  changes: z.object({
    create: z.number().int().min(0),
    update: z.number().int().min(0),
    replace: z.number().int().min(0),
    delete: z.number().int().min(0),
  }),
});

export type AssetObject = z.infer<typeof assetObjectSchema>;
export type AssetImage = z.infer<typeof assetImageSchema>;
export type GenerationDocument = z.infer<typeof generationDocumentSchema>;

export const GENERATION_DOCUMENT: DocumentKind<GenerationDocument> = {
  name: 'generation',
  currentVersion: 1,
  schema: generationDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `Delete that version of ${key} (aws s3api delete-object --version-id ...): cdkd undo then skips it; the stack's state is not affected.`,
};
