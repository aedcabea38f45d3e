/** One property AWS holds otherwise than cdkd applied it. */
export interface PropertyDrift {
  property: string;
  /** What cdkd applied (the record's properties); undefined when it applied nothing there. */
  recorded: unknown;
  /** What AWS holds now; undefined when it holds nothing there. */
  live: unknown;
}

/** How one recorded resource differs from what AWS holds. */
export interface ResourceDrift {
  logicalId: string;
  type: string;
  physicalId: string;
  /** True when AWS no longer holds the resource at all. */
  missing: boolean;
  properties: PropertyDrift[];
}
