import { LoginSearchSchema, PageSearchSchema, ZeroBasedPageSearchSchema, pageCount, parseSearch, toApiPage, toUrlPage } from '@pages/search-params';

describe('search params fall back silently', () => {
  it.each([
    ['', 1],
    ['?page=3', 3],
    ['?page=0', 1],
    ['?page=-2', 1],
    ['?page=abc', 1],
    ['?page=2.5', 1],
    ['?page=', 1],
    ['?page=1e2', 1],
    ['?page=%20', 1],
    ['?page=7&page=9', 9],
  ])('page in "%s" → %d', (search, page) => {
    expect(parseSearch(PageSearchSchema, search)).toEqual({ page });
  });

  it.each([
    ['', 0],
    ['?page=0', 0],
    ['?page=4', 4],
    ['?page=-1', 0],
    ['?page=x', 0],
  ])('0-based page in "%s" → %d', (search, page) => {
    expect(parseSearch(ZeroBasedPageSearchSchema, new URLSearchParams(search))).toEqual({ page });
  });

  it('flash and redirect default to empty strings and keep text', () => {
    expect(parseSearch(LoginSearchSchema, new URL('http://x/login'))).toEqual({ flash: '', redirect: '' });
    expect(parseSearch(LoginSearchSchema, new URL('http://x/login?flash=Please%20sign%20in&redirect=%2Fshell%3Fa%3D1'))).toEqual({
      flash: 'Please sign in',
      redirect: '/shell?a=1',
    });
  });

  it('converts 1-based URL pages to 0-based API pages and back', () => {
    expect(toApiPage(1)).toBe(0);
    expect(toApiPage(4)).toBe(3);
    expect(toUrlPage(0)).toBe(1);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(21, 10)).toBe(3);
  });
});
