import type { Storage } from '../../storage/storage.js';

const BUSES = 'events/buses';
const RULES = 'events/rules';

export interface BusRecord {
  name: string;
  region: string;
  description?: string;
  kmsKeyIdentifier?: string;
  deadLetterArn?: string;
  tags: Array<{ Key: string; Value: string }>;
  creationTime: number;
}

export interface RuleRecord {
  name: string;
  busName: string;
  region: string;
  /** The account it was made in (the sandbox's own when older records lack it). */
  accountId?: string;
  eventPattern?: string;
  scheduleExpression?: string;
  state: string;
  description?: string;
  roleArn?: string;
  targets: Array<Record<string, unknown> & { Id: string; Arn: string }>;
  tags: Array<{ Key: string; Value: string }>;
}

const busKey = (region: string, name: string): string => `${region}/${encodeURIComponent(name)}`;
const ruleKey = (region: string, bus: string, name: string): string =>
  `${region}/${encodeURIComponent(bus)}/${encodeURIComponent(name)}`;

/** Event buses and rules per region (the default bus always exists), written through to storage. */
export class EventsStore {
  private readonly buses = new Map<string, BusRecord>();
  private readonly rules = new Map<string, RuleRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<EventsStore> {
    const store = new EventsStore(storage);
    for (const { doc } of await storage.listDocuments<BusRecord>(BUSES))
      store.buses.set(busKey(doc.region, doc.name), doc);
    for (const { doc } of await storage.listDocuments<RuleRecord>(RULES)) {
      store.rules.set(ruleKey(doc.region, doc.busName, doc.name), doc);
    }
    return store;
  }

  getBus(region: string, name: string): BusRecord | undefined {
    if (name === 'default') return { name, region, tags: [], creationTime: 0 };
    return this.buses.get(busKey(region, name));
  }

  allBuses(): BusRecord[] {
    return [...this.buses.values()];
  }

  saveBus(bus: BusRecord): Promise<void> {
    this.buses.set(busKey(bus.region, bus.name), bus);
    return this.storage.putDocument(BUSES, busKey(bus.region, bus.name), bus);
  }

  deleteBus(bus: BusRecord): Promise<void> {
    this.buses.delete(busKey(bus.region, bus.name));
    return this.storage.deleteDocument(BUSES, busKey(bus.region, bus.name));
  }

  getRule(region: string, bus: string, name: string): RuleRecord | undefined {
    return this.rules.get(ruleKey(region, bus, name));
  }

  rulesOn(region: string, bus: string): RuleRecord[] {
    return [...this.rules.values()].filter((rule) => rule.region === region && rule.busName === bus);
  }

  allRules(): RuleRecord[] {
    return [...this.rules.values()];
  }

  saveRule(rule: RuleRecord): Promise<void> {
    this.rules.set(ruleKey(rule.region, rule.busName, rule.name), rule);
    return this.storage.putDocument(RULES, ruleKey(rule.region, rule.busName, rule.name), rule);
  }

  deleteRule(rule: RuleRecord): Promise<void> {
    this.rules.delete(ruleKey(rule.region, rule.busName, rule.name));
    return this.storage.deleteDocument(RULES, ruleKey(rule.region, rule.busName, rule.name));
  }
}

export function busArn(bus: { region: string; name: string }, accountId: string): string {
  return `arn:aws:events:${bus.region}:${accountId}:event-bus/${bus.name}`;
}

/** Rules on the default bus have no bus segment in their ARN. */
export function ruleArn(rule: { region: string; busName: string; name: string }, accountId: string): string {
  const path = rule.busName === 'default' ? rule.name : `${rule.busName}/${rule.name}`;
  return `arn:aws:events:${rule.region}:${accountId}:rule/${path}`;
}
