import * as z from 'zod';
import type { DocumentKind } from './document-reader.js';
import { jsonObject } from './json-object.js';

/** What proves that a live resource is still the one cdkd made (ARN + creation time, TableId, ...). */
export const creationIdentitySchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));

export const resourceRecordSchema = z.object({
  type: z.string().min(1),
  physicalId: z.string(),
  /** What Ref returns, only where it differs from the physical id. */
  ref: z.string().optional(),
  /** What was applied; NoEcho-sourced values masked as `***`. */
  properties: jsonObject,
  /** What was read back from AWS. */
  observedProperties: jsonObject.optional(),
  /** Values for Fn::GetAtt. */
  attributes: jsonObject.default({}),
  /**
   * The attributes are masked (`***`): a custom resource answered `NoEcho: true`. The values
   * Fn::GetAtt resolves to are kept in the stack's no-echo data object, never in this document.
   */
  noEchoAttributes: z.literal(true).optional(),
  /** sha256 of the canonical resolved properties; absent on legacy records (spec 004). */
  propertyHash: z.string().optional(),
  provisionedBy: z.enum(['sdk', 'cc-api']),
  dependencies: z.array(z.string()).default([]),
  deletionPolicy: z.string().optional(),
  updateReplacePolicy: z.string().optional(),
  region: z.string().optional(),
  creationIdentity: creationIdentitySchema.optional(),
});

export const outputRecordSchema = z.object({
  value: z.unknown(),
  description: z.string().optional(),
  exportName: z.string().optional(),
});

/** An old resource a replacement left behind, kept here until it is deleted so nothing is untracked. */
export const pendingDeleteSchema = z.object({
  logicalId: z.string(),
  record: resourceRecordSchema,
  /** Stacks that import an export reading it: deleted only once they have deployed after it. */
  heldFor: z.array(z.string()).optional(),
});

export const stateDocumentSchema = z.object({
  version: z.literal(1),
  stackName: z.string().min(1),
  region: z.string().min(1),
  updatedAt: z.string(),
  templateHash: z.string().optional(),
  /** The StackId custom resource handlers are sent, stable for the stack's life. */
  stackId: z.string().optional(),
  /** The deployed generation's template, parameters (NoEcho masked) and tags. */
  template: jsonObject.optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.array(z.string())])).default({}),
  tags: z.record(z.string(), z.string()).default({}),
  /** The app's `terminationProtection: true` as last deployed: destroy refuses while it is on. */
  terminationProtection: z.literal(true).optional(),
  outputs: z.record(z.string(), outputRecordSchema).default({}),
  /** Export names this stack's template imports (Fn::ImportValue), so their removal can be refused. */
  imports: z.array(z.string()).default([]),
  resources: z.record(z.string(), resourceRecordSchema).default({}),
  pendingDeletes: z.array(pendingDeleteSchema).default([]),
  /** The process that wrote this document, and its count of writes: how it knows its own write (own-writes.ts). */
  writer: z.string().min(1).optional(),
  generation: z.number().int().min(0).optional(),
});

export type ResourceRecord = z.infer<typeof resourceRecordSchema>;
export type OutputRecord = z.infer<typeof outputRecordSchema>;
export type PendingDelete = z.infer<typeof pendingDeleteSchema>;
export type StateDocument = z.infer<typeof stateDocumentSchema>;

export const STATE_DOCUMENT: DocumentKind<StateDocument> = {
  name: 'state',
  currentVersion: 1,
  schema: stateDocumentSchema,
  migrations: {},
  repairHint: (key) =>
    `Restore an earlier version of ${key} from the bucket's version history (state buckets are versioned), or fix the file by hand.`,
};

export function emptyStateDocument(stackName: string, region: string): StateDocument {
  return {
    version: 1,
    stackName,
    region,
    updatedAt: new Date().toISOString(),
    parameters: {},
    tags: {},
    outputs: {},
    imports: [],
    resources: {},
    pendingDeletes: [],
  };
}
