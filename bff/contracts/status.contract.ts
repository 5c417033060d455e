import * as v from 'valibot';

/** `GET /api`: what the service is and how it runs. */
export const ServiceStatusSchema = v.object({
  name: v.string(),
  version: v.string(),
  status: v.literal('ok'),
  uptimeSeconds: v.number(),
  startedAt: v.string(),
  database: v.object({ engine: v.picklist(['sqlite', 'postgres']) }),
  kisi: v.object({ mode: v.picklist(['emulator', 'remote']) }),
  node: v.string(),
});
export type ServiceStatus = v.InferOutput<typeof ServiceStatusSchema>;
