/** One central-directory record: what fflate's unzip does not expose (attributes, DOS time). */
export interface CentralEntry {
  name: string;
  /** High byte of "version made by": 3 is Unix. */
  madeBy: number;
  /** Unix mode (external attributes >>> 16). */
  mode: number;
  dosTime: number;
  dosDate: number;
}

/** Reads the central directory of a zip without ZIP64 or an archive comment. */
export function centralDirectory(zip: Uint8Array): CentralEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.length - 22;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error('no end-of-central-directory record');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  const entries: CentralEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (view.getUint32(offset, true) !== 0x02014b50) throw new Error(`bad central header at ${offset}`);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    entries.push({
      name: new TextDecoder().decode(zip.subarray(offset + 46, offset + 46 + nameLength)),
      madeBy: view.getUint8(offset + 5),
      mode: view.getUint32(offset + 38, true) >>> 16,
      dosTime: view.getUint16(offset + 12, true),
      dosDate: view.getUint16(offset + 14, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
