import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

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
  /**
   * The address diners and staff open the app at (the first of `PUBLIC_ORIGIN`), for links made to
   * leave the building: table QR codes. Null when it is not configured. Never a secret: it is the
   * address on the sticker.
   */
  publicOrigin: v.nullable(v.string()),
});
export type ServiceStatus = v.InferOutput<typeof ServiceStatusSchema>;

export const statusApi = {
  status: endpoint({ method: 'GET', path: '/api', summary: 'What the service is and how it runs', access: 'public', response: ServiceStatusSchema }),
  /** The /bad page shows what a server failure looks like: this fails on purpose. */
  bad: endpoint({ method: 'GET', path: '/api/bad', summary: 'Fails on purpose with a 500 problem (the /bad demo page)', access: 'public', response: v.never(), errors: [500] }),
};
