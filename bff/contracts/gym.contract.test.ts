import { MEMBERSHIPS, doorStateOf } from './gym.contract';

describe('doorStateOf: whether the doors open for a member, as the desk reads it', () => {
  it.each([
    ['active', { accessEnabled: true }, 'open', 'Doors open for them'],
    ['active', { accessEnabled: false }, 'closed', 'Doors closed: switched off in Kisi'],
    ['paused', { accessEnabled: false }, 'closed', 'Doors closed: membership not active'],
    ['cancelled', { accessEnabled: false }, 'closed', 'Doors closed: membership not active'],
    ['paused', { accessEnabled: true }, 'open', 'Doors open, though the membership is not active'],
    ['cancelled', { accessEnabled: true }, 'open', 'Doors open, though the membership is not active'],
  ] as const)('%s membership, Kisi %j: %s', (membership, kisiUser, doors, label) => {
    expect(doorStateOf(membership, kisiUser)).toEqual({ doors, label });
  });

  it.each(MEMBERSHIPS)('a %s member without a Kisi account has no door account; before Kisi answers it is not known', (membership) => {
    expect(doorStateOf(membership, null)).toEqual({ doors: 'no_account', label: 'No door account' });
    expect(doorStateOf(membership, undefined)).toEqual({ doors: 'unknown', label: 'Door access not known' });
  });
});
