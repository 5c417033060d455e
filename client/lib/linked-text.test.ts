import { linkParts, type TextPart } from './linked-text';

const text = (t: string): TextPart => ({ kind: 'text', text: t });
const link = (t: string, href = t): TextPart => ({ kind: 'link', text: t, href });
/** The addresses found, as their text. */
const links = (body: string) => linkParts(body).flatMap((part) => (part.kind === 'link' ? [part.text] : []));

describe('linkParts', () => {
  it('splits text around http(s) links and gives back every character, in order', () => {
    const body = 'Menu at https://example.com/menu?x=1. Also\nhttp://kitchen.example/board too';
    const parts = linkParts(body);
    expect(parts).toEqual([
      text('Menu at '),
      link('https://example.com/menu?x=1'),
      text('. Also\n'),
      link('http://kitchen.example/board'),
      text(' too'),
    ]);
    expect(parts.map((p) => p.text).join('')).toBe(body);
  });

  it('is plain text, one part, when there is no link (and nothing at all for nothing)', () => {
    expect(linkParts('Line one\nLine two')).toEqual([text('Line one\nLine two')]);
    expect(linkParts('')).toEqual([]);
    expect(linkParts('https://x.example')).toEqual([link('https://x.example')]);
  });

  it.each([
    ['see https://x.example/menu.', 'https://x.example/menu'],
    ['see https://x.example/menu, then', 'https://x.example/menu'],
    ['is it https://x.example/menu?', 'https://x.example/menu'],
    ['wow https://x.example/menu!!!', 'https://x.example/menu'],
    ['at https://x.example/menu: the specials', 'https://x.example/menu'],
    ['at https://x.example/menu; or', 'https://x.example/menu'],
    ['“https://x.example/menu”', 'https://x.example/menu'],
    ['‘https://x.example/menu’', 'https://x.example/menu'],
    ['«https://x.example/menu»', 'https://x.example/menu'],
    ['"https://x.example/menu"', 'https://x.example/menu'],
    ["'https://x.example/menu'", 'https://x.example/menu'],
    ['`https://x.example/menu`', 'https://x.example/menu'],
    ['query https://x.example/menu?q=laksa&x=1.', 'https://x.example/menu?q=laksa&x=1'],
  ])('leaves trailing punctuation to the sentence: %s', (body, expected) => {
    expect(links(body)).toEqual([expected]);
  });

  it.each([
    ['(see https://x.example/a)', 'https://x.example/a'],
    ['(see https://x.example/a).', 'https://x.example/a'],
    ['see https://x.example/a.)', 'https://x.example/a'],
    ['[https://x.example/a]', 'https://x.example/a'],
    ['{https://x.example/a}', 'https://x.example/a'],
    ['https://en.wikipedia.org/wiki/Laksa_(dish)', 'https://en.wikipedia.org/wiki/Laksa_(dish)'],
    ['(https://en.wikipedia.org/wiki/Laksa_(dish)).', 'https://en.wikipedia.org/wiki/Laksa_(dish)'],
    ['https://x.example/a_(b)_(c)', 'https://x.example/a_(b)_(c)'],
    ['https://x.example/list[1]', 'https://x.example/list[1]'],
  ])('keeps a closing bracket only when the link opened it: %s', (body, expected) => {
    expect(links(body)).toEqual([expected]);
  });

  it('makes bare www. addresses links that open over https', () => {
    expect(linkParts('Book at www.example.com/table.')).toEqual([text('Book at '), link('www.example.com/table', 'https://www.example.com/table'), text('.')]);
    expect(linkParts('WWW.EXAMPLE.COM')).toEqual([link('WWW.EXAMPLE.COM', 'https://WWW.EXAMPLE.COM')]);
    // Not a link: inside a word, or nothing after it.
    expect(links('awww.example.com')).toEqual([]);
    expect(links('www. and www.. and www.!')).toEqual([]);
  });

  it('keeps an http(s) address as written, whatever its case', () => {
    expect(linkParts('HTTPS://Example.com/Menu')).toEqual([link('HTTPS://Example.com/Menu')]);
    expect(links('https://www.example.com')).toEqual(['https://www.example.com']);
  });

  it('never makes a link of another scheme, or of a scheme with nothing after it', () => {
    for (const body of ['javascript:alert(1)', 'JavaScript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox', 'ftp://files.example/a', 'mailto:desk@example.com', 'file:///etc/passwd', 'https://', 'https://...', 'http://)']) {
      expect(linkParts(body)).toEqual([text(body)]);
    }
  });

  it('a javascript: prefix cannot smuggle itself into an href: only the https address after it is the link', () => {
    expect(linkParts('javascript:https://x.example')).toEqual([text('javascript:'), link('https://x.example')]);
  });

  it('leaves HTML as the literal text it is; a link stops at <, > and quotes', () => {
    expect(linkParts('<b>bold</b> & <img src=x onerror=alert(1)>')).toEqual([text('<b>bold</b> & <img src=x onerror=alert(1)>')]);
    const body = '<a href="https://evil.example/x">click</a>';
    expect(linkParts(body)).toEqual([text('<a href="'), link('https://evil.example/x'), text('">click</a>')]);
    expect(links('https://x.example/a<b>c</b>')).toEqual(['https://x.example/a']);
  });
});
