/** A CloudFormation template as parsed from the assembly (JSON). */
export interface Template {
  Resources?: Record<string, TemplateResource>;
  [section: string]: unknown;
}

export interface TemplateResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  [attribute: string]: unknown;
}

/** Placeholders CDK writes for an environment-agnostic stack. */
export const UNKNOWN_ACCOUNT = 'unknown-account';
export const UNKNOWN_REGION = 'unknown-region';

export interface StackEnvironment {
  /** A 12-digit account, or `unknown-account` for an environment-agnostic stack. */
  account: string;
  /** A region, or `unknown-region` for an environment-agnostic stack. */
  region: string;
  /** `aws://account/region`, as the manifest spells it. */
  name: string;
}

export type AnnotationLevel = 'error' | 'warning' | 'info';

export interface Annotation {
  level: AnnotationLevel;
  /** The stack's display path. */
  stack: string;
  /** The construct path the annotation is attached to. */
  path: string;
  message: string;
}

export interface FileDestination {
  id: string;
  bucketName: string;
  objectKey: string;
  region?: string;
  assumeRoleArn?: string;
  assumeRoleExternalId?: string;
}

export interface ImageDestination {
  id: string;
  repositoryName: string;
  imageTag: string;
  region?: string;
  assumeRoleArn?: string;
  assumeRoleExternalId?: string;
}

export interface FileAsset {
  /** The asset's key in the manifest: CDK's hash of the source. */
  hash: string;
  displayName?: string;
  /** source.path as written; undefined when the asset is produced by a command. */
  sourcePath?: string;
  /** source.path resolved against the asset manifest's directory. */
  absoluteSourcePath?: string;
  /** `zip`: zip the directory; `file`: upload the file as is. */
  packaging: 'zip' | 'file';
  /** A command whose stdout names the file to upload (instead of a path). */
  executable?: string[];
  /** The asset manifest's directory, where `executable` runs. */
  manifestDir?: string;
  destinations: FileDestination[];
}

export interface ContainerAsset {
  hash: string;
  displayName?: string;
  /** source.directory as written; undefined when the image is produced by a command. */
  directory?: string;
  absoluteDirectory?: string;
  dockerFile?: string;
  dockerBuildTarget?: string;
  dockerBuildArgs?: Record<string, string>;
  /** Named build contexts: `--build-context name=path`. */
  dockerBuildContexts?: Record<string, string>;
  /** Build secrets, id to the rest of the `--secret` spec (`src=...` / `env=...`). */
  dockerBuildSecrets?: Record<string, string>;
  dockerBuildSsh?: string;
  networkMode?: string;
  platform?: string;
  dockerOutputs?: string[];
  cacheFrom?: DockerCacheOption[];
  cacheTo?: DockerCacheOption;
  cacheDisabled?: boolean;
  /** A command whose stdout names a local image to push (instead of a build). */
  executable?: string[];
  /** The asset manifest's directory, where `executable` runs. */
  manifestDir?: string;
  destinations: ImageDestination[];
}

export interface DockerCacheOption {
  type: string;
  params?: Record<string, string>;
}

export interface AssetManifest {
  /** Absolute path of the `*.assets.json` file. */
  file: string;
  files: FileAsset[];
  containers: ContainerAsset[];
}

export interface StackArtifact {
  /** The artifact id in its manifest. */
  artifactId: string;
  /** The CloudFormation stack name. */
  stackName: string;
  /** The hierarchical id (`Stack`, or `Stage/Stack` inside a Stage); unique in the assembly. */
  displayName: string;
  /** True for a stack of the root assembly, false for one inside a Stage. */
  topLevel: boolean;
  /** Absolute directory of the manifest that declares the stack. */
  assemblyDir: string;
  environment: StackEnvironment;
  /** Absolute path of the template file. */
  templateFile: string;
  template: Template;
  tags: Record<string, string>;
  terminationProtection: boolean;
  /** SNS topics the stack's events are published to, as CloudFormation does. */
  notificationArns: string[];
  /** The deploy role its synthesizer names (`cdk-QUALIFIER-deploy-role-...`): the bootstrap qualifier it expects. */
  assumeRoleArn?: string;
  /** Parameter values the assembly asks to pass at deploy time. */
  parameters: Record<string, string>;
  /** Display names of the stacks this one depends on. */
  dependencies: string[];
  assetManifests: AssetManifest[];
  annotations: Annotation[];
}

export interface CloudAssembly {
  /** Absolute path of the app's output directory (the root assembly). */
  directory: string;
  /** Schema version the manifest was written with. */
  version: string;
  /** Every stack, Stages included, in manifest order. */
  stacks: StackArtifact[];
}
