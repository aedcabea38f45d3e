import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { LookupError, type Provider } from './provider.js';

/** The newest image (by CreationDate) matching the owners and filters. */
export const ami: Provider = async (client, query) => {
  const ec2 = await client(EC2Client);
  const filters = (query.filters ?? {}) as Record<string, string[]>;
  const response = await ec2.send(
    new DescribeImagesCommand({
      ...(Array.isArray(query.owners) ? { Owners: query.owners as string[] } : {}),
      Filters: Object.entries(filters).map(([Name, Values]) => ({ Name, Values })),
    }),
  );
  const images = (response.Images ?? []).filter((image) => image.ImageId !== undefined);
  if (images.length === 0) throw new LookupError('No AMI found that matched the search criteria');
  const created = (date: string | undefined) => Date.parse(date ?? '1970');
  images.sort((a, b) => created(b.CreationDate) - created(a.CreationDate));
  return { value: images[0]!.ImageId };
};
