import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';

/**
 * What the last `cdkd drift` of a stack found, beside its state: when, in which mode, and
 * which resources had drifted (missing ones among them). A summary to show, never a rule's input.
 */
export const driftDocumentSchema = z.object({
  version: z.literal(1),
  checkedAt: z.string().min(1),
  mode: z.enum(['detect', 'accept', 'revert']),
  drifted: z.array(z.string()),
  /** The drifted resources AWS no longer holds. */
  missing: z.array(z.string()),
});

export type DriftDocument = z.infer<typeof driftDocumentSchema>;

export const DRIFT_DOCUMENT: DocumentKind<DriftDocument> = {
  name: 'drift summary',
  currentVersion: 1,
  schema: driftDocumentSchema,
  migrations: {},
  repairHint: (key) => `Delete ${key} and run cdkd drift again: it only records the last check.`,
};
