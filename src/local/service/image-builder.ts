import type { ContainerAsset } from '../../assembly/index.js';
import { newAssetRun, type AssetRun } from '../../assets/asset-run.js';
import { buildArguments, localImageTag } from '../../assets/container/build-arguments.js';
import { runContainerCli } from '../../assets/container/container-cli.js';
import { buildCommandAnnouncement, runBuildCommand } from '../../assets/executable.js';

export interface ImageBuilderLog {
  onInfo: (message: string) => void;
  /** Repeats of an announcement (--verbose). */
  onVerbose: (message: string) => void;
}

/**
 * Builds container image assets for `cdkd local start-service` as a deploy builds them (the
 * asset's build flags, or its build command), and announces each distinct command once per
 * run (002-V7): a service rebuilds for each start, and repeating the announcement would bury
 * it; repeats go to --verbose.
 */
export class ImageBuilder {
  private readonly run: AssetRun = newAssetRun(1);

  constructor(
    private readonly engine: string,
    private readonly stack: string,
    private readonly log: ImageBuilderLog,
  ) {}

  /** Builds the asset and resolves to the local image to run. */
  async build(asset: ContainerAsset): Promise<string> {
    const name = asset.displayName ? `${asset.displayName} (${asset.hash})` : asset.hash;
    if (asset.executable) {
      return runBuildCommand(
        asset.executable,
        { id: asset.hash, name, stack: this.stack, cwd: asset.manifestDir ?? process.cwd() },
        this.run,
        (event) => {
          if (event.type !== 'build-command') return;
          (event.first ? this.log.onInfo : this.log.onVerbose)(buildCommandAnnouncement(event));
        },
      );
    }
    const tag = localImageTag(asset.hash);
    const args = buildArguments(asset, tag);
    const announcement = `Building image asset ${name}: ${this.engine} ${args.join(' ')} (in ${asset.absoluteDirectory})`;
    const key = JSON.stringify([this.engine, ...args, asset.absoluteDirectory]);
    (this.run.announced.has(key) ? this.log.onVerbose : this.log.onInfo)(announcement);
    this.run.announced.add(key);
    await runContainerCli(this.engine, args, {
      purpose: `building image asset ${name}`,
      asset: name,
      cwd: asset.absoluteDirectory!,
    });
    return tag;
  }
}
