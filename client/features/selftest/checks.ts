import { authApi } from '@contracts/auth.contract';
import { eventsApi } from '@contracts/events.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { statusApi } from '@contracts/status.contract';
import { call, errorMessage, isApiError } from '@/lib/api-client';

export type CheckOutcome = { state: 'ok' | 'warn' | 'fail'; detail: string };
export type Check = { id: string; title: string; what: string; run: () => Promise<CheckOutcome> };

const ok = (detail: string): CheckOutcome => ({ state: 'ok', detail });
const warn = (detail: string): CheckOutcome => ({ state: 'warn', detail });
const fail = (detail: string): CheckOutcome => ({ state: 'fail', detail });

export async function checkApi(): Promise<CheckOutcome> {
  try {
    const status = await call(statusApi.status);
    return status.status === 'ok' ? ok(`${status.name} ${status.version} answers.`) : fail(`The service reports "${String(status.status)}".`);
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export async function checkSession(): Promise<CheckOutcome> {
  try {
    const { user } = await call(authApi.session);
    if (!user) return warn('Not signed in. The session check works; sign in to use the staff pages.');
    return ok(`Signed in as ${user.name} (${user.email}, ${user.role}).`);
  } catch (error) {
    return fail(errorMessage(error));
  }
}

export async function checkProblems(): Promise<CheckOutcome> {
  try {
    await call(statusApi.bad);
    return fail('/api/bad answered OK; it should fail on purpose.');
  } catch (error) {
    if (isApiError(error, 500) && error.problem) return ok(`Errors arrive as problem details ("${error.problem.title}").`);
    return fail(errorMessage(error));
  }
}

/** Opens the live event stream just long enough to see its first answer. */
export async function checkLiveEvents(timeoutMs = 5000): Promise<CheckOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(urlOf(eventsApi.stream), { headers: { Accept: 'text/event-stream' }, signal: controller.signal, credentials: 'same-origin' });
    const type = response.headers.get('content-type') ?? '';
    if (response.ok && type.includes('text/event-stream')) return ok('The live event stream opens.');
    if (response.status === 401) return warn('Sign in to open the live event stream.');
    if (response.status === 403) return warn('Your role may not open the live event stream.');
    if (response.status === 404) return warn('This server has no live event stream yet.');
    return fail(`Unexpected answer: ${response.status} ${type || 'without a content type'}.`);
  } catch (error) {
    if (controller.signal.aborted) return fail(`No answer within ${timeoutMs / 1000} s.`);
    return fail(errorMessage(error));
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

function roundTrip(storage: Storage, label: string): string | null {
  const key = `frontdesk:selftest:${Math.random().toString(36).slice(2)}`;
  try {
    storage.setItem(key, 'ok');
    const read = storage.getItem(key);
    storage.removeItem(key);
    return read === 'ok' ? null : `${label} did not keep a value`;
  } catch (error) {
    return `${label}: ${errorMessage(error)}`;
  }
}

export async function checkStorage(): Promise<CheckOutcome> {
  const problems: string[] = [];
  const working: string[] = [];
  for (const [name, get] of [
    ['Local storage', () => window.localStorage],
    ['Session storage', () => window.sessionStorage],
  ] as const) {
    let storage: Storage | undefined;
    try {
      storage = get();
    } catch {
      storage = undefined;
    }
    const problem = storage ? roundTrip(storage, name) : `${name} is blocked`;
    if (problem) problems.push(problem);
    else working.push(name.toLowerCase());
  }
  if (!navigator.cookieEnabled) problems.push('Cookies are off, so you cannot sign in');
  else working.push('cookies');
  if (problems.length) return fail(`${problems.join('; ')}.`);
  return ok(`Working: ${working.join(', ')}.`);
}

export const checks: Check[] = [
  { id: 'api', title: 'API', what: 'GET /api answers with the service status', run: checkApi },
  { id: 'session', title: 'Session', what: 'GET /api/auth/session tells who is signed in', run: checkSession },
  { id: 'problems', title: 'Error format', what: 'A failing call returns problem JSON', run: checkProblems },
  { id: 'events', title: 'Live events', what: 'The server-sent event stream opens', run: () => checkLiveEvents() },
  { id: 'storage', title: 'Storage', what: 'Local and session storage and cookies work', run: checkStorage },
];
