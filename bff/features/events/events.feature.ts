import type { Feature, FeatureContext } from '../../feature';
import { eventsRoute } from './events.router';

/** `GET /api/events`: the live event stream of signed-in users. */
export function eventsFeature({ streams, mount }: FeatureContext): Feature {
  return mount([eventsRoute(streams)]);
}
