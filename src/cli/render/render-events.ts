import type { StackEvent } from '../../state/index.js';

/**
 * One line per event: `timestamp  status  logicalId  type  physicalId  [survivor: id (managed by sdk)]  reason`.
 * An absent logical id, type or physical id shows as `-` so the columns keep their places;
 * the managing layer of an event with no survivor shows as `(managed by cc-api)`.
 */
export function renderEvents(events: StackEvent[]): string {
  return events.map((event) => `${renderEvent(event)}\n`).join('');
}

export function renderEvent(event: StackEvent): string {
  const parts = [
    event.timestamp,
    event.status,
    event.logicalId || '-',
    event.resourceType || '-',
    event.physicalId || '-',
  ];
  const managedBy = event.managedBy ? ` (managed by ${event.managedBy})` : '';
  if (event.survivorId) parts.push(`survivor: ${event.survivorId}${managedBy}`);
  else if (managedBy) parts.push(managedBy.trim());
  if (event.reason) parts.push(oneLine(event.reason));
  return parts.join('  ');
}

export function noEventsLine(stackName: string, region: string): string {
  return `No events recorded for stack ${stackName} in ${region}.\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
