import { KMSClient, ListAliasesCommand } from '@aws-sdk/client-kms';
import type { Provider } from './provider.js';

/** The key an alias points to: `{ keyId }`; an alias that does not exist is notFound. */
export const kmsKey: Provider = async (client, query) => {
  const kms = await client(KMSClient);
  let marker: string | undefined;
  do {
    const page = await kms.send(new ListAliasesCommand({ ...(marker ? { Marker: marker } : {}) }));
    const alias = page.Aliases?.find((entry) => entry.AliasName === query.aliasName);
    if (alias?.TargetKeyId) return { value: { keyId: alias.TargetKeyId } };
    marker = page.NextMarker;
  } while (marker);
  return { notFound: `Could not find any key with alias named ${String(query.aliasName)}` };
};
