import type { ProblemFieldError } from '../contracts/problem.contract';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export const statusTitle = (status: number): string => TITLES[status] ?? 'Error';

/** An expected failure that becomes an application/problem+json response. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly options: { errors?: ProblemFieldError[]; headers?: Record<string, string>; title?: string } = {},
  ) {
    super(detail);
  }
}

export const badRequest = (detail: string, errors?: ProblemFieldError[]) => new HttpError(400, detail, { errors });
export const unauthorized = (detail = 'You need to log in.') => new HttpError(401, detail);
export const forbidden = (detail = 'Your role does not allow this.') => new HttpError(403, detail);
export const notFound = (detail: string) => new HttpError(404, detail);
export const conflict = (detail: string) => new HttpError(409, detail);
/** A path parameter that does not percent-decode (`%ZZ`, a lone `%`): the client's mistake. */
export const undecodablePath = () => badRequest('A part of the path is not valid percent-encoding.', [{ path: 'params', message: 'Not valid percent-encoding' }]);
