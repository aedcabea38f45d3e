import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';

/**
 * The `Data` of a stack's custom resources that answered `NoEcho: true`, by logical id, then
 * by the physical id answered (a replacement's old copy keeps its own until it is deleted).
 * State records those attributes masked; this document, beside it under the stack's key, holds them.
 */
export const noEchoDocumentSchema = z.object({
  version: z.literal(1),
  resources: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown()))),
});

export type NoEchoDocument = z.infer<typeof noEchoDocumentSchema>;

export const NO_ECHO_DOCUMENT: DocumentKind<NoEchoDocument> = {
  name: 'no-echo data',
  currentVersion: 1,
  schema: noEchoDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `Restore an earlier version of ${key} from the bucket's version history (state buckets are versioned); without it, redeploy the custom resources it names so their handlers answer again.`,
};
