export {
  publishAssets,
  type AssetPublishers,
  type PublishAssetsInput,
  type PublishAssetsResult,
  type StackAssets,
} from './publish-assets.js';
export {
  rewriteAssetReferences,
  type AssetReferenceRewrite,
  type AssetRewriteResult,
} from './rewrite-references.js';
export type {
  AssetEvent,
  AssetPublication,
  AssetPublisher,
  ImagePublication,
  PublishContext,
} from './publisher.js';
export { newAssetRun, type AssetRun } from './asset-run.js';
export { buildCommandAnnouncement } from './executable.js';
export { fileAssetPublisher } from './file-publisher.js';
export { containerImagePublisher } from './container-publisher.js';
export { zipDirectory } from './zip-directory.js';
