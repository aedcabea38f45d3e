import { optionalString, requiredString } from '../../protocols/json.js';
import { requireGroup, type LogsCall } from './group-ops.js';
import { logsErrors } from './logs-errors.js';
import type { LogEvent } from './event-store.js';

/** PutLogEvents / GetLogEvents / FilterLogEvents: what a function printed, readable back. */

export async function putLogEvents(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const stream = requiredString(call.input, 'logStreamName', 'InvalidParameterException');
  if (!group.streams.some((candidate) => candidate.name === stream)) throw logsErrors.streamNotFound();
  const given = Array.isArray(call.input.logEvents)
    ? (call.input.logEvents as Record<string, unknown>[])
    : [];
  const ingestionTime = Date.now();
  await call.events.append(
    call.region,
    group.name,
    stream,
    given.map((event) => ({
      timestamp: Number(event.timestamp),
      message: String(event.message ?? ''),
      ingestionTime,
    })),
  );
  return { nextSequenceToken: String(ingestionTime) };
}

export async function getLogEvents(call: LogsCall): Promise<unknown> {
  const group = requireGroup(call);
  const stream = requiredString(call.input, 'logStreamName', 'InvalidParameterException');
  if (!group.streams.some((candidate) => candidate.name === stream)) throw logsErrors.streamNotFound();
  const events = call.events.events(call.region, group.name, stream).filter((event) => inWindow(call, event));
  const limit = typeof call.input.limit === 'number' ? call.input.limit : 10_000;
  const fromHead = call.input.startFromHead === true;
  const page = fromHead ? events.slice(0, limit) : events.slice(-limit);
  return {
    events: page.map(({ timestamp, message, ingestionTime }) => ({ timestamp, message, ingestionTime })),
    // One page holds everything the sandbox keeps: the tokens only say "no more".
    nextForwardToken: `f/${events.length}`,
    nextBackwardToken: 'b/0',
  };
}

export async function filterLogEvents(call: LogsCall): Promise<unknown> {
  const group = requireGroup(
    call,
    optionalString(call.input, 'logGroupName') ? 'logGroupName' : 'logGroupIdentifier',
  );
  const named = Array.isArray(call.input.logStreamNames) ? call.input.logStreamNames.map(String) : undefined;
  const prefix = optionalString(call.input, 'logStreamNamePrefix') ?? '';
  const terms = (optionalString(call.input, 'filterPattern') ?? '')
    .split(/\s+/)
    .map((term) => term.replace(/^"|"$/g, ''))
    .filter((term) => term !== '');
  const events = group.streams
    .filter((stream) => (named ? named.includes(stream.name) : stream.name.startsWith(prefix)))
    .flatMap((stream) =>
      // The id counts the event's place in its stream, not in this answer: the same event keeps
      // its id from one read to the next, as AWS's does (a tail dedupes by it).
      call.events
        .events(call.region, group.name, stream.name)
        .map((event, index) => ({ event, index }))
        .filter(({ event }) => inWindow(call, event))
        .map(({ event, index }) => ({
          logStreamName: stream.name,
          timestamp: event.timestamp,
          message: event.message,
          ingestionTime: event.ingestionTime,
          eventId: `${event.timestamp}${String(index).padStart(8, '0')}`,
        })),
    )
    // Plain-term patterns only: every term must appear in the message.
    .filter((event) => terms.every((term) => event.message.includes(term)))
    .sort((a, b) => a.timestamp - b.timestamp);
  return { events, searchedLogStreams: [] };
}

function inWindow(call: LogsCall, event: LogEvent): boolean {
  const start = typeof call.input.startTime === 'number' ? call.input.startTime : -Infinity;
  const end = typeof call.input.endTime === 'number' ? call.input.endTime : Infinity;
  return event.timestamp >= start && event.timestamp < end;
}
