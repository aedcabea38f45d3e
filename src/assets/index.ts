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
export type { AssetEvent, AssetPublication, AssetPublisher, PublishContext } from './publisher.js';
export { fileAssetPublisher } from './file-publisher.js';
export { containerImagePublisher } from './container-publisher.js';
export { zipDirectory } from './zip-directory.js';
