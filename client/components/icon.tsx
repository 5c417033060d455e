/**
 * A small stroke icon set (24×24, currentColor), decorative unless labelled by the caller. One set
 * for the page frame and the screens: the layout draws it, so it is in the entry, and the home
 * page's cards, which every first visit to "/" shows, use most of it.
 */
const shapes = {
  info: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z M12 16v-5 M12 8h.01',
  alert: 'M12 3 2 20h20z M12 10v4 M12 17h.01',
  logout: 'M15 4h4v16h-4 M10 8l-4 4 4 4 M6 12h10',
  close: 'M6 6l12 12 M18 6 6 18',
  check: 'M5 12l5 5 9-10',
  menu: 'M4 7h16 M4 12h16 M4 17h16',
  shell: 'M4 5h16v14H4z M4 9h16 M8 13h4 M8 16h7',
  test: 'M9 3h6 M10 3v6L5 19a1 1 0 0 0 1 2h12a1 1 0 0 0 1-2l-5-10V3 M7.5 15h9',
  counter: 'M5 12h14 M12 5v14',
  panel: 'M3 4h18v16H3z M14 4v16 M16.5 8h2 M16.5 11h2',
  chime: 'M4 3h16 M7 3v9 M11 3v13 M15 3v7 M19 3v11 M7 14a1 1 0 1 0 0.01 0 M11 18a1 1 0 1 0 0.01 0',
  arch: 'M4 21V11a8 8 0 0 1 16 0v10 M8 21v-9a4 4 0 0 1 8 0v9 M2 21h20',
  clock: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z M12 6v6l4 2',
  inbox: 'M3 13l3-8h12l3 8v6H3z M3 13h5l1 3h6l1-3h5',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21a8 8 0 0 1 16 0',
  arrow: 'M5 12h14 M13 6l6 6-6 6',
  cross: 'M7 7l10 10 M17 7 7 17',
  refresh: 'M20 11a8 8 0 1 0-2.3 5.7 M20 4v7h-7',
  server: 'M4 4h16v6H4z M4 14h16v6H4z M8 7h.01 M8 17h.01',
  play: 'M7 4l13 8-13 8z',
  stop: 'M6 6h12v12H6z',
  home: 'M3 11 12 3l9 8 M5 10v10h14V10',
  plus: 'M12 5v14 M5 12h14',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z M20 20l-4-4',
  trash: 'M4 7h16 M9 7V4h6v3 M6 7l1 13h10l1-13 M10 11v6 M14 11v6',
  edit: 'M4 20h4L19 9l-4-4L4 16z M13 7l4 4',
  dumbbell: 'M3 10v4 M6 7v10 M18 7v10 M21 10v4 M6 12h12',
  users: 'M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M2 21a7 7 0 0 1 14 0 M16 3.5a4 4 0 0 1 0 7.5 M18 14a6 6 0 0 1 4 6',
  lock: 'M6 11h12v10H6z M8 11V7a4 4 0 0 1 8 0v4 M12 15v2',
  download: 'M12 4v11 M7 10l5 5 5-5 M5 20h14',
  unlock: 'M6 11h12v10H6z M8 11V7a4 4 0 0 1 7.7-1.5 M12 15v2',
  key: 'M7.5 16a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9z M12 11.5h9 M18 11.5v3 M21 11.5v2.5',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  activity: 'M3 12h4l3-8 4 16 3-8h4',
  pause: 'M8 5v14 M16 5v14',
  door: 'M5 21V3h11v18 M3 21h16 M13 12h.01 M16 5h3v16',
  food: 'M4 3v5a3 3 0 0 0 6 0V3 M7 3v18 M17 21V3c-2.2 1.2-3.5 4-3.5 8.5H17',
  cart: 'M3 4h2l2.4 11h10.2L20 7.5H6.1 M9 20h.01 M17 20h.01',
  qr: 'M4 4h6v6H4z M14 4h6v6h-6z M4 14h6v6H4z M14 14h2v2h-2z M18 18h2v2h-2z M14 18h2 M18 14h2 M7 7h.01 M17 7h.01 M7 17h.01',
  print: 'M6 9V3h12v6 M6 18H4v-7h16v7h-2 M6 14h12v7H6z',
  minus: 'M5 12h14',
  undo: 'M9 14 4 9l5-5 M4 9h11a5 5 0 0 1 0 10h-3',
  image: 'M4 5h16v14H4z M4 16l5-5 4 4 2-2 5 5 M15 9h.01',
  ball: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z M3 12h6 M15 12h6 M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  question: 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .9-1 1.6V14 M12 17h.01',
  portal: 'M12 21a9 9 0 1 0-9-9 M12 17a5 5 0 1 0-5-5 M12 13a1 1 0 1 0-1-1',
  post: 'M6 3h9l4 4v14H6z M14 3v5h5 M9 12h7 M9 16h5',
  bell: 'M6 16v-5a6 6 0 0 1 12 0v5l2 2H4z M10 21h4',
} as const;

export type IconName = keyof typeof shapes;

/** One icon of the set, 24×24 in currentColor: decorative unless `label` names it. */
export function Icon({ name, size = 20, label }: { name: IconName; size?: number; label?: string }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <path d={shapes[name]} />
    </svg>
  );
}
