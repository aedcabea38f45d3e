import { isAbsolute } from 'node:path';
import { CdkdError } from '../errors.js';
import { isWithin, realpathOrUndefined } from './paths.js';
import type { AssetManifest } from './types.js';

interface AssetPathRow {
  hash: string;
  manifest: string;
  field: 'source.path' | 'source.directory';
  raw: string;
  absolute: string;
  /** Where the bytes go, for the warning. */
  destination: string;
}

/**
 * The asset rows of the cloud assembly checks, measured against the app's output
 * directory (not the asset manifest's own): a relative path leaving it is refused;
 * an absolute one is accepted (`cdk synth --no-staging` writes those) with a warning
 * when it falls outside; a path naming the output directory itself, by any
 * spelling, is warned about. Returns the warnings.
 */
export function checkAssetPaths(
  manifests: AssetManifest[],
  outputDir: string,
  realpath: (path: string) => string | undefined = realpathOrUndefined,
): string[] {
  const outputReal = realpath(outputDir) ?? outputDir;
  const warnings: string[] = [];
  for (const row of manifests.flatMap(assetRows)) {
    const relativePath = !isAbsolute(row.raw);
    if (relativePath && !isWithin(outputDir, row.absolute)) {
      throw new CdkdError(
        'ASSET_PATH_ESCAPES',
        `Asset ${row.hash} in ${row.manifest}: ${row.field} "${row.raw}" resolves to ${row.absolute}, outside the output directory ${outputDir}.`,
        { hint: 'Re-synthesize the app; CDK stages every asset inside the output directory.' },
      );
    }
    const real = realpath(row.absolute);
    if (row.absolute === outputDir || row.absolute === outputReal || real === outputReal) {
      warnings.push(
        `Asset ${row.hash}: ${row.field} "${row.raw}" names the output directory ${outputDir} itself; the whole directory goes to ${row.destination}.`,
      );
    } else if (
      !relativePath &&
      !isWithin(outputDir, row.absolute) &&
      !isWithin(outputReal, real ?? row.absolute)
    ) {
      warnings.push(
        `Asset ${row.hash}: ${row.field} "${row.raw}" is outside the output directory ${outputDir}; the contents of ${row.absolute} go to ${row.destination}.`,
      );
    }
  }
  return warnings;
}

function assetRows(manifest: AssetManifest): AssetPathRow[] {
  const rows: AssetPathRow[] = [];
  for (const asset of manifest.files) {
    if (asset.sourcePath === undefined || asset.absoluteSourcePath === undefined) continue;
    const targets = asset.destinations.map((d) => `s3://${d.bucketName}/${d.objectKey}`).join(', ');
    rows.push({
      hash: asset.hash,
      manifest: manifest.file,
      field: 'source.path',
      raw: asset.sourcePath,
      absolute: asset.absoluteSourcePath,
      destination: targets || 'no destination',
    });
  }
  for (const asset of manifest.containers) {
    if (asset.directory === undefined || asset.absoluteDirectory === undefined) continue;
    const targets = asset.destinations.map((d) => `${d.repositoryName}:${d.imageTag}`).join(', ');
    rows.push({
      hash: asset.hash,
      manifest: manifest.file,
      field: 'source.directory',
      raw: asset.directory,
      absolute: asset.absoluteDirectory,
      destination: `a docker image build pushed to ${targets || 'no repository'}`,
    });
  }
  return rows;
}
