import type { Storage } from '../../storage/storage.js';
import { iamErrors } from './iam-errors.js';
import type { InstanceProfileRecord, ManagedPolicyRecord, PrincipalKind, PrincipalRecord } from './model.js';

const PRINCIPALS = 'iam/principals';
const POLICIES = 'iam/policies';
const PROFILES = 'iam/instance-profiles';

/** IAM names are unique without regard to case. */
const principalKey = (kind: PrincipalKind, name: string) => `${kind}/${name.toLowerCase()}`;

const NOT_FOUND: Record<PrincipalKind, (name: string) => string> = {
  Role: (name) => `The role with name ${name} cannot be found.`,
  User: (name) => `The user with name ${name} cannot be found.`,
  Group: (name) => `The group with name ${name} cannot be found.`,
};

/** IAM is global: one store per account, in memory and written through to storage. */
export class IamStore {
  private readonly principals = new Map<string, PrincipalRecord>();
  private readonly policies = new Map<string, ManagedPolicyRecord>();
  private readonly profiles = new Map<string, InstanceProfileRecord>();

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<IamStore> {
    const store = new IamStore(storage);
    for (const { doc } of await storage.listDocuments<PrincipalRecord>(PRINCIPALS)) {
      store.principals.set(principalKey(doc.kind, doc.name), doc);
    }
    for (const { doc } of await storage.listDocuments<ManagedPolicyRecord>(POLICIES)) {
      store.policies.set(doc.arn, doc);
    }
    for (const { doc } of await storage.listDocuments<InstanceProfileRecord>(PROFILES)) {
      store.profiles.set(doc.name.toLowerCase(), doc);
    }
    return store;
  }

  findPrincipal(kind: PrincipalKind, name: string): PrincipalRecord | undefined {
    return this.principals.get(principalKey(kind, name));
  }

  principal(kind: PrincipalKind, name: string): PrincipalRecord {
    const record = this.findPrincipal(kind, name);
    if (!record) throw iamErrors.noSuchEntity(NOT_FOUND[kind](name));
    return record;
  }

  allPrincipals(): PrincipalRecord[] {
    return [...this.principals.values()];
  }

  principalsOf(kind: PrincipalKind): PrincipalRecord[] {
    return [...this.principals.values()].filter((record) => record.kind === kind);
  }

  savePrincipal(record: PrincipalRecord): Promise<void> {
    const key = principalKey(record.kind, record.name);
    this.principals.set(key, record);
    return this.storage.putDocument(PRINCIPALS, encodeURIComponent(key), record);
  }

  deletePrincipal(record: PrincipalRecord): Promise<void> {
    const key = principalKey(record.kind, record.name);
    this.principals.delete(key);
    return this.storage.deleteDocument(PRINCIPALS, encodeURIComponent(key));
  }

  findPolicy(arn: string): ManagedPolicyRecord | undefined {
    return this.policies.get(arn);
  }

  policy(arn: string): ManagedPolicyRecord {
    const record = this.policies.get(arn);
    if (!record) throw iamErrors.noSuchEntity(`Policy ${arn} was not found.`);
    return record;
  }

  allPolicies(): ManagedPolicyRecord[] {
    return [...this.policies.values()];
  }

  savePolicy(record: ManagedPolicyRecord): Promise<void> {
    this.policies.set(record.arn, record);
    return this.storage.putDocument(POLICIES, encodeURIComponent(record.arn), record);
  }

  deletePolicy(record: ManagedPolicyRecord): Promise<void> {
    this.policies.delete(record.arn);
    return this.storage.deleteDocument(POLICIES, encodeURIComponent(record.arn));
  }

  findProfile(name: string): InstanceProfileRecord | undefined {
    return this.profiles.get(name.toLowerCase());
  }

  profile(name: string): InstanceProfileRecord {
    const record = this.findProfile(name);
    if (!record) throw iamErrors.noSuchEntity(`Instance Profile ${name} cannot be found.`);
    return record;
  }

  allProfiles(): InstanceProfileRecord[] {
    return [...this.profiles.values()];
  }

  saveProfile(record: InstanceProfileRecord): Promise<void> {
    this.profiles.set(record.name.toLowerCase(), record);
    return this.storage.putDocument(PROFILES, encodeURIComponent(record.name.toLowerCase()), record);
  }

  deleteProfile(record: InstanceProfileRecord): Promise<void> {
    this.profiles.delete(record.name.toLowerCase());
    return this.storage.deleteDocument(PROFILES, encodeURIComponent(record.name.toLowerCase()));
  }

  /** Principals of every kind that have `arn` attached. */
  attachmentsOf(arn: string): PrincipalRecord[] {
    return [...this.principals.values()].filter((record) => record.attached.includes(arn));
  }
}
