import {
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  UpdateResourceCommand,
  type CloudControlClient,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import { settle } from './helpers.js';

/** Cloud Control requests run to their end, for tests of what a type's handler does. */
export function cloudControlCalls(client: () => CloudControlClient) {
  const run = async (
    command: CreateResourceCommand | UpdateResourceCommand | DeleteResourceCommand,
  ): Promise<ProgressEvent> => {
    const accepted = await client().send(command as CreateResourceCommand);
    return (await settle(client(), accepted.ProgressEvent!)).event;
  };
  return {
    create: (TypeName: string, desired: Record<string, unknown>) =>
      run(new CreateResourceCommand({ TypeName, DesiredState: JSON.stringify(desired) })),
    patch: (TypeName: string, Identifier: string, operations: unknown[]) =>
      run(new UpdateResourceCommand({ TypeName, Identifier, PatchDocument: JSON.stringify(operations) })),
    remove: (TypeName: string, Identifier: string) =>
      run(new DeleteResourceCommand({ TypeName, Identifier })),
    async properties(TypeName: string, Identifier: string): Promise<Record<string, unknown>> {
      const read = await client().send(new GetResourceCommand({ TypeName, Identifier }));
      return JSON.parse(read.ResourceDescription!.Properties!) as Record<string, unknown>;
    },
  };
}
