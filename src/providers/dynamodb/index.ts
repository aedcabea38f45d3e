import type { ProviderRegistry } from '../registry.js';
import { TABLE, TableProvider } from './table.js';

export function registerDynamoDb(registry: ProviderRegistry): void {
  registry.registerSdk(TABLE, new TableProvider());
}
