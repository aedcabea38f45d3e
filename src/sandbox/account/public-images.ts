import { stableId } from './regions.js';

/** An image AWS publishes (Amazon Linux, Windows, ECS, EKS, Bottlerocket), as DescribeImages shows it. */
export interface PublicImage {
  imageId: string;
  name: string;
  architecture: 'x86_64' | 'arm64';
  platform?: 'windows';
  ownerId: string;
  ownerAlias: 'amazon';
  creationDate: string;
  description: string;
}

/** A public SSM parameter under /aws/service/: a plain image id, or a JSON document with sub-parameters. */
export interface PublicParameter {
  name: string;
  value: string;
}

const AMAZON_OWNER = '137112412989';
const WINDOWS_OWNER = '801119661308';
const CREATED = '2025-02-18T20:24:51.000Z';
const ARCHES = ['x86_64', 'arm64'] as const;

interface Family {
  /** Parameter name → image name, architecture, platform. */
  entries: Array<{ parameter: string; image: string; arch: 'x86_64' | 'arm64'; windows?: boolean }>;
  /** Whether each parameter is a JSON document whose fields are also sub-parameters (ECS's `recommended`). */
  document?: { os: string; subparameter: string };
}

const product = <T>(lists: T[][]): T[][] =>
  lists.reduce<T[][]>((acc, list) => acc.flatMap((prefix) => list.map((item) => [...prefix, item])), [[]]);

const join = (parts: string[]): string => parts.filter((part) => part !== '').join('-');

/** Names as aws-cdk-lib's MachineImage builds them: generation-ami-[edition]-[kernel]-[virt]-cpu-[storage]. */
function amazonLinux(): Family['entries'] {
  const base = '/aws/service/ami-amazon-linux-latest/';
  const entries: Family['entries'] = [];
  for (const [edition, kernel, arch] of product<string>([
    ['', 'minimal'],
    ['kernel-default', 'kernel-6.1', 'kernel-6.12'],
    [...ARCHES],
  ])) {
    const kernelVersion = kernel === 'kernel-default' ? 'kernel-6.1' : kernel!;
    entries.push({
      parameter: base + join(['al2023', 'ami', edition!, kernel!, arch!]),
      image: join(['al2023-ami', edition!, '2023.6.20250218.2', kernelVersion, arch!]),
      arch: arch as 'x86_64' | 'arm64',
    });
    entries.push({
      parameter: base + join(['al2022', 'ami', edition!, kernel!, arch!]),
      image: join(['al2022-ami', edition!, '2022.0.20221207.4', kernelVersion, arch!]),
      arch: arch as 'x86_64' | 'arm64',
    });
  }
  for (const [edition, kernel, arch, storage] of product<string>([
    ['', 'minimal'],
    ['', 'kernel-5.10'],
    [...ARCHES],
    ['gp2', 'ebs'],
  ])) {
    entries.push({
      parameter: base + join(['amzn2', 'ami', edition!, kernel!, 'hvm', arch!, storage!]),
      image: join(['amzn2-ami', edition!, kernel!, 'hvm-2.0.20250220.0', arch!, storage!]),
      arch: arch as 'x86_64' | 'arm64',
    });
  }
  for (const [edition, virt, storage] of product<string>([
    ['', 'minimal'],
    ['hvm', 'pv'],
    ['gp2', 'ebs', 's3'],
  ])) {
    entries.push({
      parameter: base + join(['amzn', 'ami', edition!, virt!, 'x86_64', storage!]),
      image: join(['amzn-ami', edition!, `${virt}-2018.03.0.20231218.0`, 'x86_64', storage!]),
      arch: 'x86_64',
    });
  }
  return entries;
}

const WINDOWS_YEARS = ['2012-R2_RTM', '2016', '2019', '2022', '2025'];

function windows(): Family['entries'] {
  return product<string>([
    WINDOWS_YEARS,
    ['English', 'Japanese', 'German'],
    ['Full', 'Core'],
    ['Base', 'ContainersLatest'],
  ]).map(([year, language, edition, flavour]) => {
    const name = `Windows_Server-${year}-${language}-${edition}-${flavour}`;
    return {
      parameter: `/aws/service/ami-windows-latest/${name}`,
      image: `${name}-2025.02.12`,
      arch: 'x86_64',
      windows: true,
    };
  });
}

/** ECS-optimized images: `.../recommended` is a JSON document, its fields sub-parameters. */
function ecs(): Family['entries'] {
  const variants: Array<[string, string, 'x86_64' | 'arm64']> = [
    ['amazon-linux', 'amzn-ami-2018.03.20231218-amazon-ecs-optimized', 'x86_64'],
    ['amazon-linux-2', 'amzn2-ami-ecs-hvm-2.0.20250214-x86_64-ebs', 'x86_64'],
    ['amazon-linux-2/arm64', 'amzn2-ami-ecs-hvm-2.0.20250214-arm64-ebs', 'arm64'],
    ['amazon-linux-2/gpu', 'amzn2-ami-ecs-gpu-hvm-2.0.20250214-x86_64-ebs', 'x86_64'],
    ['amazon-linux-2/inf', 'amzn2-ami-ecs-inf-hvm-2.0.20250214-x86_64-ebs', 'x86_64'],
    ['amazon-linux-2/kernel-5.10', 'amzn2-ami-ecs-kernel-5.10-hvm-2.0.20250214-x86_64-ebs', 'x86_64'],
    ['amazon-linux-2/kernel-5.10/arm64', 'amzn2-ami-ecs-kernel-5.10-hvm-2.0.20250214-arm64-ebs', 'arm64'],
    ['amazon-linux-2/kernel-5.10/gpu', 'amzn2-ami-ecs-kernel-5.10-gpu-hvm-2.0.20250214-x86_64-ebs', 'x86_64'],
    ['amazon-linux-2023', 'al2023-ami-ecs-hvm-2023.0.20250214-kernel-6.1-x86_64', 'x86_64'],
    ['amazon-linux-2023/arm64', 'al2023-ami-ecs-hvm-2023.0.20250214-kernel-6.1-arm64', 'arm64'],
    ['amazon-linux-2023/gpu', 'al2023-ami-ecs-gpu-hvm-2023.0.20250214-kernel-6.1-x86_64', 'x86_64'],
    ['amazon-linux-2023/neu', 'al2023-ami-ecs-neu-hvm-2023.0.20250214-kernel-6.1-x86_64', 'x86_64'],
  ];
  return variants.map(([path, image, arch]) => ({
    parameter: `/aws/service/ecs/optimized-ami/${path}/recommended`,
    image,
    arch,
  }));
}

function ecsWindows(): Family['entries'] {
  return product<string>([
    ['2016', '2019', '2022', '2025'],
    ['Full', 'Core'],
  ]).map(([year, edition]) => {
    const name = `Windows_Server-${year}-English-${edition}-ECS_Optimized`;
    return {
      parameter: `/aws/service/ami-windows-latest/${name}`,
      image: `${name}-2025.02.13`,
      arch: 'x86_64',
      windows: true,
    };
  });
}

const KUBERNETES = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];

function bottlerocket(): Family['entries'] {
  const variants = [
    'aws-ecs-1',
    'aws-ecs-1-nvidia',
    'aws-ecs-2',
    'aws-ecs-2-nvidia',
    ...KUBERNETES.flatMap((v) => [`aws-k8s-${v}`, `aws-k8s-${v}-nvidia`]),
  ];
  return product<string>([variants, [...ARCHES]]).map(([variant, arch]) => ({
    parameter: `/aws/service/bottlerocket/${variant}/${arch}/latest/image_id`,
    image: `bottlerocket-${variant}-${arch}-v1.32.0-cacc4ce9`,
    arch: arch as 'x86_64' | 'arm64',
  }));
}

function eks(): Family['entries'] {
  const al2: Array<[string, 'x86_64' | 'arm64']> = [
    ['amazon-linux-2', 'x86_64'],
    ['amazon-linux-2-arm64', 'arm64'],
    ['amazon-linux-2-gpu', 'x86_64'],
  ];
  return KUBERNETES.flatMap((version) => [
    ...al2.map(([path, arch]) => ({
      parameter: `/aws/service/eks/optimized-ami/${version}/${path}/recommended`,
      image: `${path.replace('amazon-linux-2', 'amazon-eks')}-node-${version}-v20250212`,
      arch,
    })),
    ...product<string>([[...ARCHES], ['standard', 'nvidia']]).map(([arch, flavour]) => ({
      parameter: `/aws/service/eks/optimized-ami/${version}/amazon-linux-2023/${arch}/${flavour}/recommended`,
      image: `amazon-eks-node-al2023-${arch}-${flavour}-${version}-v20250212`,
      arch: arch as 'x86_64' | 'arm64',
    })),
  ]);
}

const PLAIN = [...amazonLinux(), ...windows(), ...bottlerocket()];
const DOCUMENTS = [...ecs(), ...ecsWindows(), ...eks()];

function image(region: string, name: string, arch: 'x86_64' | 'arm64', isWindows: boolean): PublicImage {
  return {
    imageId: stableId('ami', region, name),
    name,
    architecture: arch,
    ...(isWindows ? { platform: 'windows' as const } : {}),
    ownerId: isWindows ? WINDOWS_OWNER : AMAZON_OWNER,
    ownerAlias: 'amazon',
    creationDate: CREATED,
    description: `${name} published by AWS`,
  };
}

const cache = new Map<string, { images: Map<string, PublicImage>; parameters: Map<string, string> }>();

function catalogue(region: string) {
  let entry = cache.get(region);
  if (entry) return entry;
  const images = new Map<string, PublicImage>();
  const parameters = new Map<string, string>();
  const add = (name: string, arch: 'x86_64' | 'arm64', isWindows = false): PublicImage => {
    const made = image(region, name, arch, isWindows);
    images.set(made.imageId, made);
    return made;
  };
  for (const entryOf of PLAIN)
    parameters.set(entryOf.parameter, add(entryOf.image, entryOf.arch, entryOf.windows).imageId);
  for (const entryOf of DOCUMENTS) {
    const made = add(entryOf.image, entryOf.arch, entryOf.windows);
    const document = {
      ecs_agent_version: '1.89.3',
      image_id: made.imageId,
      image_name: made.name,
      image_version: made.name.match(/\d{4}\.\d+\.\d{8}|\d\.\d\.\d{8}|v\d{8}|\d{4}\.\d\d\.\d\d/)?.[0] ?? '1',
      os: entryOf.windows ? 'Windows' : 'Amazon Linux',
      schema_version: 1,
      source_image_name: made.name,
    };
    // The Windows ECS parameter is the document itself; `image_id` etc. sit below it.
    parameters.set(entryOf.parameter, JSON.stringify(document));
    for (const [field, value] of Object.entries(document))
      parameters.set(`${entryOf.parameter}/${field}`, String(value));
  }
  entry = { images, parameters };
  cache.set(region, entry);
  return entry;
}

/** The public parameters of a region, by name (any region gets the same families, its own ids). */
export function publicParameters(region: string): ReadonlyMap<string, string> {
  return catalogue(region).parameters;
}

/** The public images of a region, by image id. */
export function publicImages(region: string): ReadonlyMap<string, PublicImage> {
  return catalogue(region).images;
}

/** Whether a parameter name is in AWS's reserved namespace (`aws`/`ssm` prefixes cannot be written). */
export function isReservedParameterName(name: string): boolean {
  return /^\/?(aws|ssm)/i.test(name);
}
