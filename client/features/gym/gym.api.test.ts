import { gymReads } from '@contracts/gym.contract';
import { keyOf } from '@/lib/api-client';
import { membersKey, parseMembersSearch } from './gym.api';

describe("the members list's first read", () => {
  it('at the bare address is the read the BFF preloads from the HTML (one request, not two)', () => {
    expect(membersKey(parseMembersSearch(new URL('http://desk.test/shell/gymowner/users')))).toEqual(keyOf(gymReads.firstMembersPage));
  });

  it('with a page or a search asked is another read, which the BFF does not preload', () => {
    expect(membersKey(parseMembersSearch(new URL('http://desk.test/shell/gymowner/users?page=2')))).not.toEqual(keyOf(gymReads.firstMembersPage));
    expect(membersKey(parseMembersSearch(new URL('http://desk.test/shell/gymowner/users?query=ann')))).not.toEqual(keyOf(gymReads.firstMembersPage));
  });
});
