import { render, screen } from '@testing-library/react';
import { LinkedText } from './linked-text';

describe('LinkedText', () => {
  it('shows the text as typed, with its links clickable in a new tab without referrer or endorsement', () => {
    const body = 'Menu at www.example.com/menu.\n<b>bold</b> javascript:alert(1) https://x.example/a';
    const { container } = render(<LinkedText className="msg-body" text={body} />);
    const p = container.querySelector('p')!;
    expect(p).toHaveClass('linked-text', 'msg-body');
    expect(p.textContent).toBe(body);
    expect(container.querySelector('b, script, img')).toBeNull();
    const links = screen.getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://www.example.com/menu', 'https://x.example/a']);
    for (const a of links) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
});
