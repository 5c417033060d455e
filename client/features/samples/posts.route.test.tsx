import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { fakeSamples, type FakeSamples } from '@/test-support/samples.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, samples: FakeSamples = fakeSamples(), signedIn = true) {
  const api = fakeBff(samples.handlers, { signedIn });
  const view = renderApp(path);
  return { ...view, api, samples, user: userEvent.setup() };
}

const sampleCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path.startsWith('/api/samples/')).map((c) => c.path);
const rows = () => within(screen.getByRole('list', { name: 'Posts' })).getAllByRole('link');
/** A row's number and title (the first line of the body follows them). */
const heads = () => rows().map((a) => [a.querySelector('.smp-post-number')!.textContent!.replace('Post ', ''), a.querySelector('.list-title')!.textContent]);

describe('/shell/posts', () => {
  it('page 1 starts with the fake “Non-existent Post”, then six posts numbered from 1', async () => {
    const { api } = setup('/shell/posts');
    const fake = await screen.findByRole('link', { name: /Non-existent Post/ });
    expect(fake).toHaveAttribute('href', '/shell/posts/i-do-not-exist');
    expect(sampleCalls(api)).toEqual(['/api/samples/posts?page=0']);
    expect(heads()).toEqual([
      ['–', 'Non-existent Post'],
      ['1', 'post number 1'],
      ['2', 'post number 2'],
      ['3', 'post number 3'],
      ['4', 'post number 4'],
      ['5', 'post number 5'],
      ['6', 'post number 6'],
    ]);
    expect(rows()[1]).toHaveAttribute('href', '/shell/posts/1');
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('numbers page 2 from 7 (page × 6 + position + 1), asks the API for page 1, and has no fake entry', async () => {
    const { api, user, router } = setup('/shell/posts?page=2');
    expect(await screen.findByRole('link', { name: /post number 7/ })).toBeInTheDocument();
    expect(sampleCalls(api)).toEqual(['/api/samples/posts?page=1']);
    expect(heads().map(([n]) => n)).toEqual(['7', '8', '9', '10', '11', '12']);
    expect(screen.queryByRole('link', { name: /Non-existent Post/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    await waitFor(() => expect(heads().map(([n]) => n)).toEqual(['13', '14']));
  });

  it.each(['0', 'abc', '-3'])('treats the page %s as page 1', async (page) => {
    const { api } = setup(`/shell/posts?page=${page}`);
    expect(await screen.findByRole('link', { name: /Non-existent Post/ })).toBeInTheDocument();
    expect(sampleCalls(api)).toEqual(['/api/samples/posts?page=0']);
  });

  it('the fake post’s link shows the not-found screen, without asking the API', async () => {
    const { api, user, router } = setup('/shell/posts');
    await user.click(await screen.findByRole('link', { name: /Non-existent Post/ }));
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell/posts/i-do-not-exist');
    expect(sampleCalls(api)).toEqual(['/api/samples/posts?page=0']);
  });

  it('says when JSONPlaceholder cannot be reached, with a retry', async () => {
    const samples = fakeSamples();
    samples.down = 502;
    const { user } = setup('/shell/posts', samples);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the posts. JSONPlaceholder cannot be reached right now.');
    // The page asks once more as it shows; the button offers the retry when that has failed too.
    const retry = await within(alert).findByRole('button', { name: 'Try again' });
    samples.down = null;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: /post number 1/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('needs a session: a visitor goes to the sign-in page', async () => {
    const { router } = setup('/shell/posts?page=2', fakeSamples(), false);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/shell/posts?page=2');
  });

  it('is a card under the shell overview’s samples, not one of the desk’s tabs (it is a sample)', async () => {
    const { user } = setup('/shell');
    expect(await screen.findByRole('navigation', { name: 'Staff shell' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Staff shell' })).queryByRole('link', { name: 'Posts' })).not.toBeInTheDocument();
    await user.click(screen.getByText('Samples and demos'));
    expect(screen.getByRole('link', { name: /Posts JSONPlaceholder’s posts/ })).toHaveAttribute('href', '/shell/posts');
  });
});

describe('/shell/posts/:postId', () => {
  it('shows the post and its author (name, email, company), and goes on to the comments', async () => {
    const { user, router } = setup('/shell/posts?page=1');
    await user.click(await screen.findByRole('link', { name: /post number 2/ }));
    expect(await screen.findByRole('heading', { name: 'post number 2', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'The post' })).toHaveTextContent('The body of post 2.');
    const author = screen.getByRole('region', { name: 'Author' });
    expect(within(author).getByText('Name').nextElementSibling).toHaveTextContent('Ervin Howell');
    expect(within(author).getByRole('link', { name: 'Shanna@melissa.tv' })).toHaveAttribute('href', 'mailto:Shanna@melissa.tv');
    expect(within(author).getByText('Company').nextElementSibling).toHaveTextContent('Deckow-Crist');
    expect(screen.getByRole('link', { name: '← All posts' })).toHaveAttribute('href', '/shell/posts');

    await user.click(screen.getByRole('link', { name: /Read the comments/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/posts/2/deep'));
    expect(await screen.findByRole('heading', { name: '0 comments', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No comments yet' })).toBeInTheDocument();
  });

  it('shows a stale copy of the post with its age', async () => {
    const samples = fakeSamples();
    samples.stale = 26 * 3600;
    setup('/shell/posts/3', samples);
    expect(await screen.findByRole('heading', { name: 'post number 3', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/Showing a copy from/)).toHaveTextContent('Showing a copy from 1 day ago — JSONPlaceholder cannot be reached right now.');
  });

  it('shows the not-found screen for a post JSONPlaceholder does not have', async () => {
    setup('/shell/posts/99');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });

  it('keeps the list page to go back to', async () => {
    const { user } = setup('/shell/posts?page=2');
    await user.click(await screen.findByRole('link', { name: /post number 8/ }));
    expect(await screen.findByRole('heading', { name: 'post number 8', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← All posts' })).toHaveAttribute('href', '/shell/posts?page=2');
  });
});

describe('/shell/posts/:postId/deep', () => {
  it('shows the post with its comments', async () => {
    const { api } = setup('/shell/posts/1/deep');
    expect(await screen.findByRole('heading', { name: 'post number 1', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'The post' })).toHaveTextContent('The body of post 1.');
    expect(screen.getByRole('heading', { name: '2 comments', level: 2 })).toBeInTheDocument();
    const comments = within(screen.getByRole('list', { name: 'Comments' })).getAllByRole('listitem');
    expect(comments).toHaveLength(2);
    expect(comments[0]).toHaveTextContent('id labore ex et quam laborum');
    expect(comments[0]).toHaveTextContent('Eliseo@gardner.biz');
    expect(comments[0]).toHaveTextContent('laudantium enim quasi est quidem magnam');
    expect(screen.getByText(/by Leanne Graham/)).toBeInTheDocument();
    expect(sampleCalls(api).sort()).toEqual(['/api/samples/posts/1', '/api/samples/posts/1/comments']);
  });

  it('shows the not-found screen for the fake post', async () => {
    setup('/shell/posts/i-do-not-exist/deep');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
