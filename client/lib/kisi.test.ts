import { linkState, qrImageSrc } from './kisi';

describe('linkState: an access link as the desk reads it (the member tab and /kisi/group_links alike)', () => {
  const now = Date.parse('2026-11-26T12:00:00Z');
  it.each([
    [{ link_enabled: true, valid_until: null }, 'Enabled'],
    [{ link_enabled: true, valid_until: '2026-11-26T23:59:59Z' }, 'Enabled'],
    [{ link_enabled: true, valid_until: '2026-11-26T11:59:59Z' }, 'Expired'],
    [{ link_enabled: true, valid_until: '2026-11-26T12:00:00Z' }, 'Expired'],
    [{ link_enabled: false, valid_until: null }, 'Disabled'],
    [{ link_enabled: false, valid_until: '2020-01-01T00:00:00Z' }, 'Expired'],
  ])('%j is %s', (link, label) => {
    expect(linkState(link, now).label).toBe(label);
  });
});

describe('qrImageSrc: a new link’s QR code as an image source', () => {
  it('makes Kisi’s bare base64 PNG a data URL and keeps a data URL as it is', () => {
    expect(qrImageSrc('iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(qrImageSrc('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
  });
});
