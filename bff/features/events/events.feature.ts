import type { Feature, FeatureContext } from '../../feature';
import { eventsRouter, type EventStreamOptions } from './events.router';
import { liveEventsRepository } from './live-events.repository';

/** `GET /api/events`: the live event stream of signed-in users. */
export function eventsFeature(
  { database, bus, mount }: FeatureContext,
  options: { isSessionAlive: (token: string) => Promise<boolean>; stream?: Partial<EventStreamOptions> },
): Feature & { endStreamsOfEndedSessions: () => Promise<void> } {
  const events = eventsRouter({ bus, events: liveEventsRepository(database), isSessionAlive: options.isSessionAlive, options: options.stream });
  return { ...mount([events.route]), close: events.endAll, endStreamsOfEndedSessions: events.endStreamsOfEndedSessions };
}
