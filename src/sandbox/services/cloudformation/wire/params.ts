import { cfnErrors } from './errors.js';
import type { ResourceToImport, Tag } from '../model/types.js';

/** A parameter as a request gives it: a value, or the previous one. */
export interface ParameterInput {
  key: string;
  value?: string;
  usePreviousValue: boolean;
}

/** Reads CloudFormation's query parameters (`Name`, `List.member.N`, `Map.entry.N.key`). */
export class Params {
  constructor(private readonly params: URLSearchParams) {}

  optional(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null ? undefined : value;
  }

  required(name: string): string {
    const value = this.params.get(name);
    if (value === null || value === '') {
      const member = name.charAt(0).toLowerCase() + name.slice(1);
      throw cfnErrors.validation(
        `1 validation error detected: Value null at '${member}' failed to satisfy constraint: Member must not be null`,
      );
    }
    return value;
  }

  flag(name: string): boolean | undefined {
    const value = this.params.get(name);
    return value === null ? undefined : value === 'true';
  }

  members(name: string): string[] {
    const out: string[] = [];
    for (let i = 1; this.params.has(`${name}.member.${i}`); i++)
      out.push(this.params.get(`${name}.member.${i}`)!);
    return out;
  }

  /** Whether the request names the list at all (an empty list is sent as `Name=`). */
  hasList(name: string): boolean {
    return (
      this.params.has(name) || this.params.has(`${name}.member.1`) || this.params.has(`${name}.member.1.Key`)
    );
  }

  tags(name = 'Tags'): Tag[] {
    const out: Tag[] = [];
    for (let i = 1; this.params.has(`${name}.member.${i}.Key`); i++) {
      out.push({
        Key: this.params.get(`${name}.member.${i}.Key`)!,
        Value: this.params.get(`${name}.member.${i}.Value`) ?? '',
      });
    }
    return out;
  }

  parameters(): ParameterInput[] {
    const out: ParameterInput[] = [];
    for (let i = 1; this.params.has(`Parameters.member.${i}.ParameterKey`); i++) {
      const prefix = `Parameters.member.${i}`;
      const value = this.params.get(`${prefix}.ParameterValue`);
      out.push({
        key: this.params.get(`${prefix}.ParameterKey`)!,
        ...(value !== null ? { value } : {}),
        usePreviousValue: this.params.get(`${prefix}.UsePreviousValue`) === 'true',
      });
    }
    return out;
  }

  resourcesToImport(): ResourceToImport[] {
    const out: ResourceToImport[] = [];
    for (let i = 1; this.params.has(`ResourcesToImport.member.${i}.LogicalResourceId`); i++) {
      const prefix = `ResourcesToImport.member.${i}`;
      const identifier: Record<string, string> = {};
      for (let n = 1; this.params.has(`${prefix}.ResourceIdentifier.entry.${n}.key`); n++) {
        identifier[this.params.get(`${prefix}.ResourceIdentifier.entry.${n}.key`)!] =
          this.params.get(`${prefix}.ResourceIdentifier.entry.${n}.value`) ?? '';
      }
      out.push({
        type: this.params.get(`${prefix}.ResourceType`) ?? '',
        logicalId: this.params.get(`${prefix}.LogicalResourceId`)!,
        identifier,
      });
    }
    return out;
  }
}
