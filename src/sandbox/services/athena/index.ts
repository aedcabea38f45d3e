import { randomUUID } from 'node:crypto';
import { SandboxError } from '../../errors.js';
import { requiredString } from '../../protocols/json.js';
import type { ServiceModuleFactory } from '../../service-module.js';
import { DocumentMap } from '../../storage/document-map.js';
import { jsonApiModule } from '../api-module.js';

const WORK_GROUP = 'AWS::Athena::WorkGroup';

interface Notebook {
  id: string;
  region: string;
  workGroup: string;
  name: string;
}

const invalid = (message: string) => new SandboxError('InvalidRequestException', message, 400);

/**
 * Athena work groups (on Cloud Control's store for AWS::Athena::WorkGroup) and their
 * notebooks over JSON 1.1. A notebook needs a work group with the Spark engine, as on AWS.
 */
export const createAthenaService: ServiceModuleFactory = async (context) => {
  const store = () => context.resources.resolve(WORK_GROUP)!;
  const notebooks = await DocumentMap.load<Notebook>(context.storage, 'athena/notebooks');
  const notebook = (input: Record<string, unknown>) => {
    const id = requiredString(input, 'NotebookId', 'InvalidRequestException');
    const found = notebooks.get(id);
    if (!found) throw new SandboxError('ResourceNotFoundException', `Notebook ${id} was not found.`, 400);
    return found;
  };
  return jsonApiModule({
    name: 'athena',
    version: '1.1',
    target: 'AmazonAthena',
    handlers: {
      CreateWorkGroup: async ({ input, region, accountId }) => {
        const name = requiredString(input, 'Name', 'InvalidRequestException');
        if (store().read(name, region, accountId)) throw invalid('WorkGroup is already created');
        await store().create(
          {
            Name: name,
            ...(input.Description !== undefined && { Description: input.Description }),
            ...(input.Configuration !== undefined && { WorkGroupConfiguration: input.Configuration }),
            ...(Array.isArray(input.Tags) && input.Tags.length > 0 && { Tags: input.Tags }),
          },
          region,
          accountId,
        );
        return {};
      },
      DeleteWorkGroup: async ({ input, region, accountId }) => {
        const name = requiredString(input, 'WorkGroup', 'InvalidRequestException');
        if (!store().read(name, region, accountId)) throw invalid(`WorkGroup ${name} is not found.`);
        const held = notebooks.values().filter((book) => book.region === region && book.workGroup === name);
        if (held.length > 0 && input.RecursiveDeleteOption !== true) throw invalid('WorkGroup is not empty');
        for (const book of held) await notebooks.delete(book.id);
        await store().delete(name, region, accountId);
        return {};
      },
      CreateNotebook: async ({ input, region, accountId }) => {
        const workGroup = requiredString(input, 'WorkGroup', 'InvalidRequestException');
        const model = store().read(workGroup, region, accountId);
        if (!model) throw invalid(`WorkGroup ${workGroup} is not found.`);
        const engine = (
          model.WorkGroupConfiguration as { EngineVersion?: { SelectedEngineVersion?: string } } | undefined
        )?.EngineVersion?.SelectedEngineVersion;
        if (!engine?.startsWith('PySpark'))
          throw invalid(`WorkGroup ${workGroup} is not an Apache Spark enabled workgroup.`);
        const book = {
          id: randomUUID(),
          region,
          workGroup,
          name: requiredString(input, 'Name', 'InvalidRequestException'),
        };
        await notebooks.put(book.id, book);
        return { NotebookId: book.id };
      },
      UpdateNotebookMetadata: async ({ input }) => {
        const book = notebook(input);
        await notebooks.put(book.id, {
          ...book,
          name: requiredString(input, 'Name', 'InvalidRequestException'),
        });
        return {};
      },
      DeleteNotebook: async ({ input }) => {
        await notebooks.delete(notebook(input).id);
        return {};
      },
    },
    inventory: () => ({
      'AWS::Athena::Notebook': notebooks.values().map((book) => ({ id: book.id, region: book.region })),
    }),
  });
};
