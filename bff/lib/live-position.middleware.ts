import type { RequestHandler } from 'express';
import { LIVE_POSITION_HEADER } from '../contracts/endpoint.contract';

/**
 * Names on every read the live-event position taken before the read runs (decision 0089): each
 * event up to it was committed, so the answer shows it; a later one it may or may not show, and a
 * stream resumed from the position sends it. The tab's first live stream starts there instead of
 * reading the page again. No position (the log unreadable), no header: the page reads again.
 */
export function livePosition(position: () => Promise<number>): RequestHandler {
  return async (req, res, next) => {
    // Only the signed-in have the live stream; a visitor is not told how busy the venue is.
    if (req.method === 'GET' && req.user) {
      const at = await position().catch(() => undefined);
      if (at !== undefined) res.setHeader(LIVE_POSITION_HEADER, String(at));
    }
    next();
  };
}
