import { ConfigError, kisiMode, loadConfig } from './config';

describe('loadConfig', () => {
  it('fills every default on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      DATABASE_URL: 'file:./data/frontdesk.db',
      ADMIN_EMAIL: 'admin@frontdesk.local',
      SESSION_TTL_HOURS: 12,
      COOKIE_SECURE: false,
      TRUST_PROXY: false,
      LOG_LEVEL: 'info',
      KISI_TIMEOUT_MS: 10000,
      SAMPLES_POKEAPI_URL: 'https://pokeapi.co/api/v2',
    });
    expect(kisiMode(config)).toBe('emulator');
  });

  it('parses typed values and treats empty strings as unset', () => {
    const config = loadConfig({ PORT: '8080', COOKIE_SECURE: 'true', TRUST_PROXY: '2', LOG_LEVEL: '', KISI_BASE_URL: 'https://api.kisi.io/', KISI_API_KEY: 'k', KISI_GROUP_ID: '42' });
    expect(config.PORT).toBe(8080);
    expect(config.COOKIE_SECURE).toBe(true);
    expect(config.TRUST_PROXY).toBe(2);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.KISI_BASE_URL).toBe('https://api.kisi.io');
    expect(kisiMode(config)).toBe('remote');
  });

  it('takes a PostgreSQL URL and a pool size for several instances', () => {
    const config = loadConfig({ DATABASE_URL: ' postgres://frontdesk:secret@db.internal:5432/frontdesk ', DATABASE_POOL_SIZE: '20' });
    expect(config.DATABASE_URL).toBe('postgres://frontdesk:secret@db.internal:5432/frontdesk');
    expect(config.DATABASE_POOL_SIZE).toBe(20);
    expect(loadConfig({}).DATABASE_POOL_SIZE).toBe(10);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE must be a whole number from 1 to 100/);
  });

  it('names every bad variable and what it expects', () => {
    expect(() => loadConfig({ PORT: 'eighty', COOKIE_SECURE: 'maybe', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', COOKIE_SECURE: 'maybe', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('PORT must be a whole number from 0 to 65535');
      expect(message).toContain('COOKIE_SECURE must be true or false');
      expect(message).toContain('LOG_LEVEL must be one of');
      expect(message).toContain('DATABASE_URL must be file:<path>');
    }
  });

  it('rejects a short admin password, an invalid email and an out-of-range port', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'short' })).toThrow(/ADMIN_PASSWORD must be at least 12 characters/);
    expect(() => loadConfig({ ADMIN_EMAIL: 'not-an-email' })).toThrow(/ADMIN_EMAIL must be an email address/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be a whole number/);
  });

  it('reads PUBLIC_ORIGIN as a list of origins and refuses one with a path or another scheme', () => {
    expect(loadConfig({}).PUBLIC_ORIGIN).toBeUndefined();
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://Desk.Example.com/, http://10.0.0.5:3000' }).PUBLIC_ORIGIN).toEqual(['https://desk.example.com', 'http://10.0.0.5:3000']);
    for (const bad of ['desk.example.com', 'https://desk.example.com/app', 'ftp://desk.example.com', ' , ']) {
      expect(() => loadConfig({ PUBLIC_ORIGIN: bad })).toThrow(/PUBLIC_ORIGIN must/);
    }
  });

  it('takes the venue’s time zone by its IANA name (any case), the server’s own zone by default, and refuses an unknown one', () => {
    expect(loadConfig({ VENUE_TIME_ZONE: ' europe/lisbon ' }).VENUE_TIME_ZONE).toBe('Europe/Lisbon');
    expect(loadConfig({}).VENUE_TIME_ZONE).toBe(new Intl.DateTimeFormat('en-US', { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }).resolvedOptions().timeZone);
    expect(() => loadConfig({ VENUE_TIME_ZONE: 'Europe/Atlantis' })).toThrow(/VENUE_TIME_ZONE must be an IANA time zone/);
  });

  it('requires a key and group id when a real Kisi is configured', () => {
    expect(() => loadConfig({ KISI_BASE_URL: 'https://api.kisi.io' })).toThrow(/KISI_API_KEY is required/);
    expect(() => loadConfig({ KISI_BASE_URL: 'https://api.kisi.io', KISI_API_KEY: 'k' })).toThrow(/KISI_GROUP_ID is required/);
    expect(() => loadConfig({ KISI_BASE_URL: 'ftp://kisi' })).toThrow(/KISI_BASE_URL must be an absolute http\(s\) URL/);
  });

  it('sets the sample proxy up with a 5 s timeout, a minute in memory and its picture folder, each within range', () => {
    expect(loadConfig({})).toMatchObject({
      SAMPLES_TIMEOUT_MS: 5000,
      SAMPLES_CACHE_SECONDS: 60,
      SAMPLES_IMAGE_DIR: './data/sample-images',
      SAMPLES_POKEAPI_SPRITES_URL: 'https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites',
    });
    expect(loadConfig({ SAMPLES_CACHE_SECONDS: '0', SAMPLES_TIMEOUT_MS: '100' })).toMatchObject({ SAMPLES_CACHE_SECONDS: 0, SAMPLES_TIMEOUT_MS: 100 });
    expect(() => loadConfig({ SAMPLES_TIMEOUT_MS: '50' })).toThrow(/SAMPLES_TIMEOUT_MS must be a whole number from 100 to 60000/);
    expect(() => loadConfig({ SAMPLES_CACHE_SECONDS: '-1' })).toThrow(/SAMPLES_CACHE_SECONDS must be a whole number from 0 to 86400/);
    expect(() => loadConfig({ SAMPLES_POKEAPI_SPRITES_URL: 'sprites' })).toThrow(/SAMPLES_POKEAPI_SPRITES_URL must be an absolute http\(s\) URL/);
  });

  it('keeps the pictures in folders of a size, Rebrickable’s CDN as the catalogue’s picture host, each within range', () => {
    expect(loadConfig({})).toMatchObject({
      SAMPLES_IMAGE_DIR_MAX_MB: 200,
      CATALOGUE_MEDIA_URL: 'https://cdn.rebrickable.com/media',
      CATALOGUE_IMAGE_DIR: './data/catalogue-images',
      CATALOGUE_IMAGE_DIR_MAX_MB: 500,
    });
    expect(loadConfig({ CATALOGUE_MEDIA_URL: 'http://127.0.0.1:8080/media/', CATALOGUE_IMAGE_DIR_MAX_MB: '1' })).toMatchObject({ CATALOGUE_MEDIA_URL: 'http://127.0.0.1:8080/media', CATALOGUE_IMAGE_DIR_MAX_MB: 1 });
    expect(() => loadConfig({ CATALOGUE_IMAGE_DIR_MAX_MB: '0' })).toThrow(/CATALOGUE_IMAGE_DIR_MAX_MB must be a whole number from 1 to 1000000/);
    expect(() => loadConfig({ SAMPLES_IMAGE_DIR_MAX_MB: '2.5' })).toThrow(/SAMPLES_IMAGE_DIR_MAX_MB must be a whole number from 1 to 1000000/);
    expect(() => loadConfig({ CATALOGUE_MEDIA_URL: 'cdn.rebrickable.com' })).toThrow(/CATALOGUE_MEDIA_URL must be an absolute http\(s\) URL/);
  });
});
