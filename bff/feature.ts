import type { RequestHandler, Router } from 'express';
import type { Config } from './config';
import type { Endpoint } from './contracts/endpoint.contract';
import type { Database, Db } from './db/database';
import type { Seeder } from './db/seed';
import type { Route } from './lib/endpoint-router';
import type { EventBus } from './lib/event-bus';
import type { EventStreams } from './lib/event-stream';
import type { Job } from './lib/jobs';
import type { CounterStoreFor } from './lib/rate-limit';
import type { Logger } from './lib/logger';
import type { Counters } from './lib/metrics';

/**
 * What a feature gives the app: its endpoints (for the OpenAPI document and the contract-walking
 * tests), the router that answers them, and where it has them its background jobs and demo data.
 * Each `bff/features/<f>/<f>.feature.ts` returns one. Its live streams are the app's (`streams`).
 */
export interface Feature {
  endpoints: readonly Endpoint[];
  router: Router;
  jobs?: readonly Job[];
  /** Demo data for a brand-new database, in the order the app lists the features. */
  seeders?: readonly Seeder[];
}

/** What every feature is built from. */
export interface FeatureContext {
  config: Config;
  database: Database;
  logger: Logger;
  /** The live event bus: a write and the events that announce it in one transaction (`bus.write`). */
  bus: EventBus<Db>;
  /** Every Server-Sent Events answer of the app: one lifecycle, ended together at logout and shutdown. */
  streams: EventStreams;
  /** Where a rate limiter keeps its counts (see `counterStoreFor`). */
  counterStore: CounterStoreFor;
  /** What the metrics count as it happens (orders, messages); counts nothing when metrics are off. */
  counters: Counters;
  /** Reads a JSON body (for what is not a contract endpoint: the Kisi proxy). */
  jsonBody: RequestHandler;
  /** A feature's routes as its router and endpoints (access guard, validation, answer: see `endpointRouter`). */
  mount: (routes: readonly Route[]) => Pick<Feature, 'endpoints' | 'router'>;
}
