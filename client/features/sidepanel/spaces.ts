/** The venue's spaces, listed on /sidepanel. */
export type Space = {
  id: string;
  name: string;
  kind: 'Gym' | 'Food court' | 'Studio' | 'Service';
  floor: string;
  capacity: number;
  hours: string;
  summary: string;
  amenities: string[];
};

export const spaces: Space[] = [
  {
    id: 'gym-floor',
    name: 'Gym floor',
    kind: 'Gym',
    floor: 'Level 1',
    capacity: 80,
    hours: '05:30 – 23:00',
    summary: 'Free weights, racks and cardio machines. Members badge in at the main door.',
    amenities: ['Badge door', 'Lockers', 'Water station'],
  },
  {
    id: 'studio-a',
    name: 'Studio A',
    kind: 'Studio',
    floor: 'Level 1',
    capacity: 24,
    hours: 'Classes only',
    summary: 'Sprung floor for classes. The door opens for booked members ten minutes before a class.',
    amenities: ['Badge door', 'Sound system', 'Mats'],
  },
  {
    id: 'studio-b',
    name: 'Studio B',
    kind: 'Studio',
    floor: 'Level 2',
    capacity: 16,
    hours: 'Classes only',
    summary: 'Cycling studio with sixteen bikes and a coach screen.',
    amenities: ['Badge door', 'Bikes', 'Fans'],
  },
  {
    id: 'food-court',
    name: 'Food court',
    kind: 'Food court',
    floor: 'Ground',
    capacity: 140,
    hours: '11:00 – 22:00',
    summary: 'Six stalls around shared tables. Diners order from their table; runners bring the food.',
    amenities: ['Table ordering', 'Runner board', 'Accessible seating'],
  },
  {
    id: 'loading-bay',
    name: 'Loading bay',
    kind: 'Service',
    floor: 'Ground',
    capacity: 6,
    hours: '06:00 – 12:00',
    summary: 'Deliveries for the stalls. Staff badges only; every opening is logged.',
    amenities: ['Badge door', 'Cold store'],
  },
  {
    id: 'staff-room',
    name: 'Staff room',
    kind: 'Service',
    floor: 'Level 2',
    capacity: 12,
    hours: 'Always',
    summary: 'Break room and lockers for staff and runners.',
    amenities: ['Badge door', 'Kitchenette', 'Lockers'],
  },
];
