import { dinerMenuPath, loginPath, paths, safeRedirect } from './paths';

describe('login redirect guard: same-origin paths only', () => {
  it.each([
    ['/shell/api', '/shell/api'],
    ['/shell/api?x=1#top', '/shell/api?x=1#top'],
    ['/about', '/about'],
  ])('follows %s', (redirect, expected) => {
    expect(safeRedirect(redirect)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['//evil.example/x', 'protocol-relative'],
    ['/\\evil.example', 'backslash trick'],
    ['https://evil.example/', 'absolute URL'],
    ['javascript:alert(1)', 'script URL'],
    ['shell', 'relative path'],
    ['/login?redirect=/shell', 'the login page itself'],
  ])('refuses %s (%s) and goes to /shell', (redirect) => {
    expect(safeRedirect(redirect)).toBe(paths.shell);
  });

  it('builds /login links with only the params given', () => {
    expect(loginPath()).toBe('/login');
    expect(loginPath({ flash: 'Please sign in', redirect: '/shell?a=1' })).toBe('/login?flash=Please+sign+in&redirect=%2Fshell%3Fa%3D1');
  });
});

describe('diner menu links', () => {
  it('writes the table (the QR code) and the stall only when given', () => {
    expect(dinerMenuPath()).toBe('/pt/diner/menu');
    expect(dinerMenuPath({ table: 12 })).toBe('/pt/diner/menu?table=12');
    expect(dinerMenuPath({ table: null, stall: 3 })).toBe('/pt/diner/menu?stall=3');
    expect(dinerMenuPath({ table: 4, stall: 3 })).toBe('/pt/diner/menu?table=4&stall=3');
  });
});
