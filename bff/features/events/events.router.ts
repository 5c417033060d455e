import { eventsApi } from '../../contracts/events.contract';
import { route } from '../../lib/endpoint-router';
import { lastEventIdOf, type EventStreams } from '../../lib/event-stream';

/** `GET /api/events`: every live event the signed-in role may hear, with Last-Event-ID resume; it ends with the session. */
export const eventsRoute = (streams: EventStreams) =>
  route(eventsApi.stream, ({ query }, { req, res }) =>
    streams.stream(req, res, {
      resumeAfter: lastEventIdOf(req, query.lastEventId),
      // The access guard let only a signed-in request through.
      audience: req.user!.role,
      session: req.sessionToken,
    }),
  );
