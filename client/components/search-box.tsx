import { useEffect, useId, useRef, useState } from 'react';
import { usePendingNavigation } from '@/lib/search-params';
import { Icon } from './icon';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search field bound to the URL: typing updates the URL after a short pause (`onSearch`), and a
 * URL change from elsewhere (back button, a link) puts its value back in the field. A pause that
 * ends after the person has gone on to another page (typed, then clicked a result at once) sends
 * nothing: the search would take them back.
 */
export function SearchBox({ value, onSearch, label, placeholder, busy = false }: { value: string; onSearch: (query: string) => void; label: string; placeholder?: string; busy?: boolean }) {
  const id = useId();
  const [text, setText] = useState(value);
  const lastSent = useRef(value);
  const onSearchRef = useRef(onSearch);
  useEffect(() => {
    onSearchRef.current = onSearch;
  });
  const leaving = useRef(false);
  leaving.current = usePendingNavigation().leaving;

  // The URL moved on its own: show what it says.
  useEffect(() => {
    if (value !== lastSent.current) {
      lastSent.current = value;
      setText(value);
    }
  }, [value]);

  useEffect(() => {
    const query = text.trim();
    if (query === lastSent.current.trim()) return;
    const timer = setTimeout(() => {
      if (query === lastSent.current.trim() || leaving.current) return;
      lastSent.current = query;
      onSearchRef.current(query);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <div className="search-box" role="search">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <span className="search-icon" aria-hidden="true">
        {busy ? <span className="spinner" /> : <Icon name="search" size={18} />}
      </span>
      <input
        id={id}
        type="search"
        value={text}
        placeholder={placeholder ?? label}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            const query = text.trim();
            lastSent.current = query;
            onSearchRef.current(query);
          }
        }}
      />
    </div>
  );
}
