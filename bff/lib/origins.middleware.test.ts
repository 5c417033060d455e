import { publicOrigins } from './origins.middleware';

describe('publicOrigins', () => {
  it('without PUBLIC_ORIGIN, answers for this machine at any port: loopback and its network addresses, never another name', () => {
    const local = publicOrigins(undefined, ['10.0.0.5', '[fe80::1]']);
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:3000', 'http://10.0.0.5:3000', 'https://[fe80::1]']) expect(local.allowsOrigin(origin)).toBe(true);
    for (const origin of ['http://10.0.0.6:3000', 'http://localhost.evil.example', 'null', 'file://', 'ftp://127.0.0.1', 'http://127.0.0.1:3000/path']) expect(local.allowsOrigin(origin)).toBe(false);
    for (const host of ['localhost:3000', '127.0.0.1', '10.0.0.5:3000', '[fe80::1]:3000']) expect(local.allowsHost(host)).toBe(true);
    for (const host of ['rebound.example:3000', '10.0.0.6', 'localhost.evil.example', '']) expect(local.allowsHost(host)).toBe(false);
  });

  it('with PUBLIC_ORIGIN, answers for exactly those origins (scheme and port included) and loopback', () => {
    const configured = publicOrigins(['https://desk.example.com', 'http://10.0.0.5:8080'], ['10.0.0.5']);
    expect(configured.allowsOrigin('https://desk.example.com')).toBe(true);
    expect(configured.allowsOrigin('http://desk.example.com')).toBe(false);
    expect(configured.allowsOrigin('https://desk.example.com:8443')).toBe(false);
    expect(configured.allowsOrigin('http://10.0.0.5:8080')).toBe(true);
    expect(configured.allowsOrigin('http://10.0.0.5:3000')).toBe(false);
    expect(configured.allowsOrigin('http://localhost:3000')).toBe(true);
    expect(configured.allowsHost('desk.example.com')).toBe(true);
    expect(configured.allowsHost('10.0.0.5:8080')).toBe(true);
    expect(configured.allowsHost('10.0.0.5:3000')).toBe(false);
    expect(configured.allowsHost('127.0.0.1:3000')).toBe(true);
  });
});
