import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ResourceModel } from '../../resources.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { DocumentMap } from '../../storage/document-map.js';
import { jsonApiModule, type ApiCall } from '../api-module.js';

const TABLE = 'AWS::Glue::Table';

interface IndexRecord {
  region: string;
  database: string;
  table: string;
  name: string;
  keys: string[];
}

const notFound = (message: string) => new SandboxError('EntityNotFoundException', message, 400);

/**
 * Glue partition indexes over JSON 1.1, on tables read from Cloud Control's store for
 * AWS::Glue::Table. An index is ACTIVE at once (no partitions to backfill in the sandbox).
 */
export const createGlueService: ServiceModuleFactory = async (context) => {
  const indexes = await DocumentMap.load<IndexRecord>(context.storage, 'glue/partition-indexes');
  const table = ({ input, region, accountId }: ApiCall): ResourceModel => {
    const database = requiredString(input, 'DatabaseName', 'InvalidInputException');
    const name = requiredString(input, 'TableName', 'InvalidInputException');
    const found = context.resources
      .resolve(TABLE)!
      .list(region, accountId)
      .map((entry) => entry.model)
      .find(
        (model) =>
          model.DatabaseName === database &&
          (model.TableInput as { Name?: string } | undefined)?.Name === name,
      );
    if (!found) throw notFound(`Table ${name} not found.`);
    return found;
  };
  const idOf = (call: ApiCall, name: string) =>
    `${call.region}/${String(call.input.DatabaseName)}/${String(call.input.TableName)}/${name}`;
  const ofTable = (call: ApiCall) =>
    indexes
      .values()
      .filter(
        (index) =>
          index.region === call.region &&
          index.database === call.input.DatabaseName &&
          index.table === call.input.TableName,
      );
  return jsonApiModule({
    name: 'glue',
    version: '1.1',
    target: 'AWSGlue',
    handlers: {
      GetPartitionIndexes: (call) => {
        const model = table(call);
        const keys =
          (model.TableInput as { PartitionKeys?: Array<{ Name: string; Type?: string }> }).PartitionKeys ??
          [];
        return {
          PartitionIndexDescriptorList: ofTable(call).map((index) => ({
            IndexName: index.name,
            Keys: index.keys.map((name) => ({
              Name: name,
              Type: keys.find((key) => key.Name === name)?.Type ?? 'string',
            })),
            IndexStatus: 'ACTIVE',
          })),
        };
      },
      CreatePartitionIndex: async (call) => {
        const model = table(call);
        const index = call.input.PartitionIndex as { IndexName?: string; Keys?: string[] } | undefined;
        const name = index?.IndexName ?? '';
        const partitionKeys = (
          (model.TableInput as { PartitionKeys?: Array<{ Name: string }> }).PartitionKeys ?? []
        ).map((key) => key.Name);
        const keys = index?.Keys ?? [];
        if (keys.length === 0 || keys.some((key) => !partitionKeys.includes(key))) {
          throw new SandboxError(
            'InvalidInputException',
            'Index keys must be partition keys of the table.',
            400,
          );
        }
        if (indexes.get(idOf(call, name))) {
          throw new SandboxError('AlreadyExistsException', `Partition index ${name} already exists.`, 400);
        }
        if (ofTable(call).length >= 3) {
          throw new SandboxError(
            'ResourceNumberLimitExceededException',
            'A table can have at most 3 partition indexes.',
            400,
          );
        }
        await indexes.put(idOf(call, name), {
          region: call.region,
          database: String(call.input.DatabaseName),
          table: String(call.input.TableName),
          name,
          keys,
        });
        return {};
      },
      DeletePartitionIndex: async (call) => {
        table(call);
        const id = idOf(call, requiredString(call.input, 'IndexName', 'InvalidInputException'));
        if (!indexes.get(id)) throw notFound(`Partition index ${String(call.input.IndexName)} not found.`);
        await indexes.delete(id);
        return {};
      },
    },
  });
};
