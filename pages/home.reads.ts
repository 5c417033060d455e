import { read } from '../bff/contracts/endpoint.contract';
import { statusApi } from '../bff/contracts/status.contract';
import { inPage, type AreaReads } from './reads';

/** The service status: the home page stays usable when the API is down, its card says so. */
export const statusRead = inPage(read(statusApi.status));

export const homeReads = { home: () => ({ status: statusRead }), about: () => ({ status: statusRead }) } satisfies AreaReads;
