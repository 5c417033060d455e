import { claimOnce, isChunkLoadError, shouldReloadFor } from './chunk-reload';

afterEach(() => window.sessionStorage.clear());

describe('chunk reload, once per message per session', () => {
  it('recognises the browsers’ failed dynamic import messages', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('ERROR'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('reloads for the first failure of a message only, remembered in sessionStorage', () => {
    const a = new TypeError('Failed to fetch dynamically imported module: /assets/a.js');
    const b = new TypeError('Failed to fetch dynamically imported module: /assets/b.js');
    expect(shouldReloadFor(a)).toBe(true);
    expect(shouldReloadFor(new TypeError(a.message))).toBe(false);
    expect(shouldReloadFor(b)).toBe(true);
    expect(window.sessionStorage.length).toBe(2);
  });

  it('never reloads when storage is unavailable (no reload loops)', () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(claimOnce('k')).toBe(false);
    jest.restoreAllMocks();
  });
});
