/** Cloud Control's client and the commands its provider sends (loaded through sdk-modules.ts). */
export {
  CancelResourceRequestCommand,
  CloudControlClient,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  ListResourceRequestsCommand,
  UpdateResourceCommand,
} from '@aws-sdk/client-cloudcontrol';
