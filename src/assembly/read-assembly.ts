import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ArtifactMetadataEntryType,
  ArtifactType,
  type ArtifactManifest,
  type AssemblyManifest,
  type AssetManifestProperties,
  type AwsCloudFormationStackProperties,
  type MetadataEntry,
  type NestedCloudAssemblyProperties,
} from '@aws-cdk/cloud-assembly-schema';
import { CdkdError } from '../errors.js';
import { loadAssetManifest } from './asset-manifest.js';
import { stackTemplatePath } from './checks/template-file.js';
import { loadAssemblyManifest, parseJsonFile } from './manifest.js';
import { realpathOrUndefined } from './paths.js';
import {
  UNKNOWN_ACCOUNT,
  UNKNOWN_REGION,
  type Annotation,
  type AnnotationLevel,
  type CloudAssembly,
  type StackArtifact,
  type StackEnvironment,
  type Template,
} from './types.js';

const ANNOTATION_LEVELS: Record<string, AnnotationLevel> = {
  [ArtifactMetadataEntryType.ERROR]: 'error',
  [ArtifactMetadataEntryType.WARN]: 'warning',
  [ArtifactMetadataEntryType.INFO]: 'info',
};

/** Reads the cloud assembly in `directory`, Stages (nested assemblies) included. */
export function readAssembly(directory: string): CloudAssembly {
  const root = resolve(directory);
  const manifest = loadAssemblyManifest(root);
  const stacks: StackArtifact[] = [];
  readLevel(
    { root, dir: root, manifest, prefix: '', topLevel: true, visited: new Set([realpathSync(root)]) },
    stacks,
  );
  return { directory: root, version: manifest.version, stacks };
}

interface Level {
  /** The app's output directory. */
  root: string;
  dir: string;
  manifest: AssemblyManifest;
  /** The Stage's display path, empty at the root. */
  prefix: string;
  topLevel: boolean;
  /** Real paths of the assemblies above, so a nested assembly naming an ancestor cannot loop. */
  visited: Set<string>;
}

function readLevel(level: Level, out: StackArtifact[]): void {
  const artifacts = Object.entries(level.manifest.artifacts ?? {});
  const displayNames = new Map<string, string>();
  for (const [id, artifact] of artifacts) {
    if (artifact.type === ArtifactType.AWS_CLOUDFORMATION_STACK) {
      displayNames.set(id, artifact.displayName ?? (level.prefix ? `${level.prefix}/${id}` : id));
    }
  }
  for (const [id, artifact] of artifacts) {
    if (artifact.type === ArtifactType.AWS_CLOUDFORMATION_STACK) {
      out.push(readStack(level, id, artifact, displayNames));
    } else if (artifact.type === ArtifactType.NESTED_CLOUD_ASSEMBLY) {
      const props = artifact.properties as NestedCloudAssemblyProperties;
      const dir = join(level.dir, props.directoryName);
      const real = realpathOrUndefined(dir) ?? dir;
      if (level.visited.has(real)) {
        throw new CdkdError(
          'ASSEMBLY_MALFORMED',
          `Nested cloud assembly ${id} in ${level.dir} points back at ${dir}.`,
          {
            hint: 'Re-synthesize the app; CDK never writes a Stage assembly that contains itself.',
          },
        );
      }
      const prefix = props.displayName ?? (level.prefix ? `${level.prefix}/${id}` : id);
      const manifest = loadAssemblyManifest(dir);
      readLevel(
        { ...level, dir, manifest, prefix, topLevel: false, visited: new Set([...level.visited, real]) },
        out,
      );
    }
  }
}

function readStack(
  level: Level,
  id: string,
  artifact: ArtifactManifest,
  displayNames: Map<string, string>,
): StackArtifact {
  const props = artifact.properties as AwsCloudFormationStackProperties | undefined;
  const displayName = displayNames.get(id) ?? id;
  if (!props?.templateFile) {
    throw new CdkdError(
      'ASSEMBLY_MALFORMED',
      `Stack ${displayName} in ${level.dir} names no template file.`,
      {
        hint: 'Re-synthesize the app.',
      },
    );
  }
  const templateFile = stackTemplatePath(level.root, level.dir, props.templateFile, displayName);
  const template = parseJsonFile(templateFile, `template of stack ${displayName}`);
  if (typeof template !== 'object' || template === null || Array.isArray(template)) {
    throw new CdkdError('ASSEMBLY_MALFORMED', `The template ${templateFile} is not a JSON object.`, {
      hint: 'Re-synthesize the app.',
    });
  }
  const artifacts = level.manifest.artifacts ?? {};
  const dependencies: string[] = [];
  const assetManifests = [];
  for (const dependencyId of artifact.dependencies ?? []) {
    const dependency = artifacts[dependencyId];
    if (dependency?.type === ArtifactType.AWS_CLOUDFORMATION_STACK) {
      dependencies.push(displayNames.get(dependencyId) ?? dependencyId);
    } else if (dependency?.type === ArtifactType.ASSET_MANIFEST) {
      assetManifests.push(
        loadAssetManifest(join(level.dir, (dependency.properties as AssetManifestProperties).file)),
      );
    }
  }
  return {
    artifactId: id,
    stackName: props.stackName ?? id,
    displayName,
    topLevel: level.topLevel,
    assemblyDir: level.dir,
    environment: parseEnvironment(artifact.environment, displayName),
    templateFile,
    template: template as Template,
    tags: props.tags ?? {},
    terminationProtection: props.terminationProtection ?? false,
    notificationArns: props.notificationArns ?? [],
    ...(props.assumeRoleArn ? { assumeRoleArn: props.assumeRoleArn } : {}),
    parameters: props.parameters ?? {},
    dependencies,
    assetManifests,
    annotations: readAnnotations(readMetadata(level.dir, artifact), displayName),
  };
}

export function parseEnvironment(value: string | undefined, stack: string): StackEnvironment {
  if (value === undefined) {
    return {
      account: UNKNOWN_ACCOUNT,
      region: UNKNOWN_REGION,
      name: `aws://${UNKNOWN_ACCOUNT}/${UNKNOWN_REGION}`,
    };
  }
  const match = /^aws:\/\/([^/]+)\/([^/]+)$/.exec(value);
  if (!match?.[1] || !match[2]) {
    throw new CdkdError('ASSEMBLY_MALFORMED', `Stack ${stack} has an invalid environment "${value}".`, {
      hint: 'An environment is written aws://<account>/<region>; re-synthesize the app.',
    });
  }
  return { account: match[1], region: match[2], name: value };
}

type Metadata = Record<string, MetadataEntry[]>;

/** Metadata sits in the manifest and, in newer CDK versions, in the artifact's additionalMetadataFile. */
function readMetadata(dir: string, artifact: ArtifactManifest): Metadata {
  const merged: Metadata = { ...(artifact.metadata ?? {}) };
  if (!artifact.additionalMetadataFile) return merged;
  const file = join(dir, artifact.additionalMetadataFile);
  const extra = parseJsonFile(file, 'stack metadata file');
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
    throw new CdkdError('ASSEMBLY_MALFORMED', `The stack metadata file ${file} is not a JSON object.`, {
      hint: 'Re-synthesize the app.',
    });
  }
  for (const [path, entries] of Object.entries(extra as Metadata)) {
    if (Array.isArray(entries)) merged[path] = [...(merged[path] ?? []), ...entries];
  }
  return merged;
}

function readAnnotations(metadata: Metadata, stack: string): Annotation[] {
  const annotations: Annotation[] = [];
  for (const [path, entries] of Object.entries(metadata)) {
    for (const entry of entries) {
      const level = ANNOTATION_LEVELS[entry.type];
      if (!level) continue;
      const message = typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
      annotations.push({ level, stack, path, message });
    }
  }
  return annotations;
}
