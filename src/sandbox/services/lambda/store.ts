import type { Storage } from '../../storage/storage.js';
import type { FunctionRecord, LayerVersionRecord, MappingRecord } from './model.js';

const FUNCTIONS = 'lambda/functions';
const LAYERS = 'lambda/layers';
const MAPPINGS = 'lambda/mappings';

const functionKey = (region: string, name: string): string => `${region}.${name}`;
const layerKey = (record: Pick<LayerVersionRecord, 'region' | 'layerName' | 'version'>): string =>
  `${record.region}.${record.layerName}.${record.version}`;

/** Functions, layer versions and event source mappings, in memory and written through. */
export class LambdaStore {
  private readonly functions = new Map<string, FunctionRecord>();
  private readonly layers = new Map<string, LayerVersionRecord>();
  private readonly mappings = new Map<string, MappingRecord>();
  /** Told of every saved or deleted function (undefined), so running code follows its configuration. */
  onFunctionChange: (arn: string, record: FunctionRecord | undefined) => void = () => {};
  /** Told of every mapping created, changed or deleted through the API, so pollers follow. */
  onMappingChange: () => void = () => {};

  private constructor(private readonly storage: Storage) {}

  static async load(storage: Storage): Promise<LambdaStore> {
    const store = new LambdaStore(storage);
    for (const { doc } of await storage.listDocuments<FunctionRecord>(FUNCTIONS)) {
      store.functions.set(functionKey(doc.region, doc.name), doc);
    }
    for (const { doc } of await storage.listDocuments<LayerVersionRecord>(LAYERS)) {
      store.layers.set(layerKey(doc), doc);
    }
    for (const { doc } of await storage.listDocuments<MappingRecord>(MAPPINGS)) {
      store.mappings.set(doc.uuid, doc);
    }
    return store;
  }

  function(region: string, name: string): FunctionRecord | undefined {
    return this.functions.get(functionKey(region, name));
  }

  allFunctions(): FunctionRecord[] {
    return [...this.functions.values()];
  }

  saveFunction(record: FunctionRecord): Promise<void> {
    const key = functionKey(record.region, record.name);
    this.functions.set(key, record);
    this.onFunctionChange(record.arn, record);
    return this.storage.putDocument(FUNCTIONS, key, record);
  }

  deleteFunction(record: FunctionRecord): Promise<void> {
    const key = functionKey(record.region, record.name);
    this.functions.delete(key);
    this.onFunctionChange(record.arn, undefined);
    return this.storage.deleteDocument(FUNCTIONS, key);
  }

  layerVersions(region: string, layerName: string): LayerVersionRecord[] {
    return [...this.layers.values()]
      .filter((layer) => layer.region === region && layer.layerName === layerName)
      .sort((a, b) => a.version - b.version);
  }

  allLayerVersions(): LayerVersionRecord[] {
    return [...this.layers.values()];
  }

  saveLayerVersion(record: LayerVersionRecord): Promise<void> {
    this.layers.set(layerKey(record), record);
    return this.storage.putDocument(LAYERS, layerKey(record), record);
  }

  mapping(uuid: string): MappingRecord | undefined {
    return this.mappings.get(uuid);
  }

  allMappings(): MappingRecord[] {
    return [...this.mappings.values()];
  }

  saveMapping(record: MappingRecord): Promise<void> {
    this.mappings.set(record.uuid, record);
    this.onMappingChange();
    return this.storage.putDocument(MAPPINGS, record.uuid, record);
  }

  /** A poller's progress (checkpoint, last result), kept only while the mapping still exists. */
  async saveMappingProgress(record: MappingRecord): Promise<void> {
    if (this.mappings.get(record.uuid) !== record) return;
    await this.storage.putDocument(MAPPINGS, record.uuid, record);
  }

  deleteMapping(record: MappingRecord): Promise<void> {
    this.mappings.delete(record.uuid);
    this.onMappingChange();
    return this.storage.deleteDocument(MAPPINGS, record.uuid);
  }
}
