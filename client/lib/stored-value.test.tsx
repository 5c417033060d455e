import { act, render, screen } from '@testing-library/react';
import * as v from 'valibot';
import { storedValue, useStored } from './stored-value';

afterEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

const schema = v.array(v.number());

describe('storedValue', () => {
  it('reads back what was written, the same object for the same text', () => {
    const store = storedValue('test.numbers', schema, []);
    expect(store.read()).toEqual([]);
    store.write([1, 2]);
    expect(localStorage.getItem('test.numbers')).toBe('[1,2]');
    expect(store.read()).toEqual([1, 2]);
    expect(store.read()).toBe(store.read());
  });

  it('falls back to empty for an entry that is not JSON or not what the schema says', () => {
    const empty: number[] = [];
    const store = storedValue('test.numbers', schema, empty);
    localStorage.setItem('test.numbers', '{not json');
    expect(store.read()).toBe(empty);
    localStorage.setItem('test.numbers', '["a"]');
    expect(store.read()).toBe(empty);
    localStorage.setItem('test.numbers', '[3]');
    expect(store.read()).toEqual([3]);
  });

  it('keeps the value in memory where storage is refused', () => {
    const store = storedValue('test.numbers', schema, []);
    jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    store.write([7]);
    expect(store.read()).toEqual([7]);
  });

  it('renders again on a write here and on a change from another tab', () => {
    const store = storedValue('test.numbers', schema, []);
    function Show() {
      return <p>{useStored(store).join(',') || 'none'}</p>;
    }
    render(<Show />);
    expect(screen.getByText('none')).toBeInTheDocument();
    act(() => store.write([1]));
    expect(screen.getByText('1')).toBeInTheDocument();
    act(() => {
      localStorage.setItem('test.numbers', '[1,2]');
      window.dispatchEvent(new StorageEvent('storage', { key: 'test.numbers' }));
    });
    expect(screen.getByText('1,2')).toBeInTheDocument();
  });
});
