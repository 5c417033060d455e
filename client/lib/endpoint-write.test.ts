import { gymApi } from '@contracts/gym.contract';
import { ptApi } from '@contracts/pt.contract';
import { ApiError, call } from './api-client';
import { invalidate } from './reads';
import { write } from './endpoint-write';

// The write's own rules, apart from the network and the cache: what it calls, in which order.
jest.mock('./api-client', () => ({ ...jest.requireActual<object>('./api-client'), call: jest.fn() }));
jest.mock('./reads', () => ({ invalidate: jest.fn(() => Promise.resolve()) }));

const callMock = jest.mocked(call);
const steps: string[] = [];

beforeEach(() => {
  steps.length = 0;
  callMock.mockReset();
  jest.mocked(invalidate).mockImplementation(async (endpoint, filter, options) => void steps.push(`${options?.gone ? 'gone' : 'stale'} ${endpoint.path} ${JSON.stringify(filter ?? {})}`));
});

const member = { id: 7, name: 'Ada' };

describe('write(endpoint, effects)', () => {
  it('calls the endpoint with the input as given, then applies the answer, then reads again what went stale', async () => {
    callMock.mockImplementation(async () => {
      steps.push('call');
      return member;
    });
    const update = write(gymApi.updateMember, {
      apply: (answer) => void steps.push(`apply ${answer.id}`),
      stale: ({ params }) => [gymApi.listMembers, [gymApi.doorAccess, { params }]],
    });
    await expect(update({ params: { id: 7 }, body: { name: 'Ada' } })).resolves.toBe(member);
    expect(callMock).toHaveBeenCalledWith(gymApi.updateMember, { params: { id: 7 }, body: { name: 'Ada' } });
    expect(steps).toEqual(['call', 'apply 7', 'stale /api/gym/users {}', 'stale /api/gym/users/:id/access {"params":{"id":7}}']);
    expect(update.endpoint).toBe(gymApi.updateMember);
  });

  it('drops the reads of what it deleted before the lists read again', async () => {
    callMock.mockResolvedValue(undefined);
    const remove = write(gymApi.deleteMember, { gone: ({ params }) => [[gymApi.getMember, { params }]], stale: [gymApi.listMembers] });
    await remove({ params: { id: 3 } });
    expect(steps).toEqual(['gone /api/gym/users/:id {"params":{"id":3}}', 'stale /api/gym/users {}']);
  });

  it('on a 409 reads again what the page showed, and still throws; other failures change nothing', async () => {
    const move = write(ptApi.updateOrder, { staleWhenRefused: [ptApi.listOrders], stale: [ptApi.menu] });
    callMock.mockRejectedValueOnce(new ApiError(409, '{}', '/api/pt/orders/1'));
    await expect(move({ params: { id: 1 }, body: { status: 'ready' } })).rejects.toMatchObject({ status: 409 });
    expect(steps).toEqual(['stale /api/pt/orders {}']);

    steps.length = 0;
    callMock.mockRejectedValueOnce(new ApiError(500, 'boom', '/api/pt/orders/1'));
    await expect(move({ params: { id: 1 }, body: { status: 'ready' } })).rejects.toMatchObject({ status: 500 });
    expect(steps).toEqual([]);
  });
});
