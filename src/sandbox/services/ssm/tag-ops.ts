import { requiredString } from '../../protocols/json.js';
import type { SsmCall } from './parameter-ops.js';
import { ssmErrors } from './ssm-errors.js';
import type { ParameterRecord } from './store.js';

/** The parameter a tagging call names; SSM tags other resource types too, the sandbox only parameters. */
function taggedParameter({ store, region, input }: SsmCall): ParameterRecord {
  const type = requiredString(input, 'ResourceType');
  if (type !== 'Parameter') throw ssmErrors.invalidResourceType();
  const record = store.get(region, requiredString(input, 'ResourceId'));
  if (!record) throw ssmErrors.invalidResourceId();
  return record;
}

export async function listTagsForResource(call: SsmCall): Promise<unknown> {
  return { TagList: taggedParameter(call).tags.map(({ Key, Value }) => ({ Key, Value })) };
}

/** Adds tags, a key already there taking the new value. */
export async function addTagsToResource(call: SsmCall): Promise<unknown> {
  const record = taggedParameter(call);
  const added = (call.input.Tags as ParameterRecord['tags'] | undefined) ?? [];
  const keys = new Set(added.map((tag) => tag.Key));
  record.tags = [...record.tags.filter((tag) => !keys.has(tag.Key)), ...added];
  await call.store.save(record);
  return {};
}

export async function removeTagsFromResource(call: SsmCall): Promise<unknown> {
  const record = taggedParameter(call);
  const removed = new Set((call.input.TagKeys as string[] | undefined) ?? []);
  record.tags = record.tags.filter((tag) => !removed.has(tag.Key));
  await call.store.save(record);
  return {};
}
