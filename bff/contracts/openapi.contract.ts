import * as v from 'valibot';
import { endpoint } from './endpoint.contract';

export const openApiContract = {
  document: endpoint({
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document, generated from its endpoint descriptions',
    access: 'public',
    response: v.looseObject({ openapi: v.literal('3.1.0'), info: v.looseObject({ title: v.string(), version: v.string() }), paths: v.record(v.string(), v.unknown()) }),
  }),
};
