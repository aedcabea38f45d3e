import { CdkdError } from '../errors.js';
import { assetDirectory } from './function-code.js';
import type { LocalFunction } from './function-target.js';

export interface LocalLayers {
  /** Each layer's directory, in the function's order (what Lambda merges into /opt). */
  directories: string[];
  warnings: string[];
}

/**
 * The function's `Layers` on this machine: each a `{Ref}` to an `AWS::Lambda::LayerVersion`
 * of the same stack whose code is an asset directory (`Code.fromAsset`), under the same path
 * rule as the function's own code. A layer named by ARN (another app's, or AWS's) is not on
 * this machine: it is left out with a warning.
 */
export function localLayers(fn: LocalFunction, outputDir: string, name: string): LocalLayers {
  const layers = Array.isArray(fn.properties.Layers) ? (fn.properties.Layers as unknown[]) : [];
  const resources = (fn.stack.template.Resources ?? {}) as Record<string, Record<string, unknown>>;
  const directories: string[] = [];
  const warnings: string[] = [];
  for (const layer of layers) {
    const ref = typeof layer === 'object' && layer !== null ? (layer as { Ref?: unknown }).Ref : undefined;
    const resource = typeof ref === 'string' ? resources[ref] : undefined;
    if (resource?.Type !== 'AWS::Lambda::LayerVersion') {
      warnings.push(
        `Function ${name}: the layer ${describe(layer)} is not a layer version of this app, so it is left out (its code is not on this machine).`,
      );
      continue;
    }
    const metadata = (resource.Metadata ?? {}) as Record<string, unknown>;
    const raw = metadata['aws:asset:path'];
    if (typeof raw !== 'string') {
      throw new CdkdError(
        'LOCAL_CODE_UNAVAILABLE',
        `Function ${name}: its layer ${String(ref)} has no code on this machine (no aws:asset:path).`,
        {
          hint: 'Build the layer with LayerVersion and Code.fromAsset, and synthesize with asset metadata on.',
        },
      );
    }
    const found = assetDirectory(raw, fn.stack.assemblyDir, outputDir, `${name} (layer ${String(ref)})`);
    if (found.warning) warnings.push(found.warning);
    directories.push(found.path);
  }
  return { directories, warnings };
}

function describe(layer: unknown): string {
  return typeof layer === 'string' ? layer : JSON.stringify(layer);
}
