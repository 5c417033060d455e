import { read } from '../bff/contracts/endpoint.contract';
import { operationsApi } from '../bff/contracts/operations.contract';

/**
 * The admins' Operations page: its sections each read their own endpoint. Retention (decision 0097):
 * how long each kind of record is kept and what the last daily purge removed.
 */
export const retentionRead = read(operationsApi.retention);
