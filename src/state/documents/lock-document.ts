import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';

/** Spec 003, "The lock record": owner, timestamp, expiresAt and an optional operation. */
export const lockDocumentSchema = z.object({
  version: z.literal(1),
  owner: z.string().min(1),
  timestamp: z.string(),
  /** Absent on a truncated record, which then counts as expired. */
  expiresAt: z.string().optional(),
  operation: z.string().optional(),
});

export type LockDocument = z.infer<typeof lockDocumentSchema>;

export const LOCK_DOCUMENT: DocumentKind<LockDocument> = {
  name: 'lock',
  currentVersion: 1,
  schema: lockDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `If no cdkd process holds this lock, clear it with cdkd force-unlock (it deletes ${key}).`,
};
