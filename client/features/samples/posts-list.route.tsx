import './samples.css';
import type { Post } from '@contracts/samples.contract';
import { parsePostsSearch, postsListReads } from '@pages/samples.reads';
import { toApiPage } from '@pages/search-params';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { CardSkeletons, useListLoading } from './components/card-skeletons';
import { SampleFailure } from './components/sample-failure';
import { StaleNotice } from './components/stale-notice';
import { FAKE_POST, postNumber, postsHref, type ListLinkState } from './samples.api';

/** `/shell/posts?page`: JSONPlaceholder's posts, six a page; the URL page is 1-based (bad → 1), the API's 0-based. */
const reads = routeReads(postsListReads);
export const { loader } = reads;
export const handle = { title: 'Posts', ...reads.handle };

function PostRow({ post, number, state }: { post: Post; number: number; state: ListLinkState }) {
  return (
    <li>
      <AppLink to={paths.post(post.id)} state={state} className="list-row">
        <span className="smp-post-number tabular">
          <span className="visually-hidden">Post </span>
          {number}
        </span>
        <span className="list-main">
          <span className="list-title smp-post-title">{post.title}</span>
          <span className="list-sub">{post.body.split('\n')[0]}</span>
        </span>
        <Icon name="arrow" size={18} />
      </AppLink>
    </li>
  );
}

/** The spec's missing-item test: a post that does not exist, first on page 1; its link ends on the not-found screen. */
function FakePostRow({ state }: { state: ListLinkState }) {
  return (
    <li>
      <AppLink to={paths.post(FAKE_POST.id)} state={state} className="list-row">
        <span className="smp-post-number" aria-hidden="true">
          –
        </span>
        <span className="list-main">
          <span className="list-title smp-post-title">{FAKE_POST.title}</span>
          <span className="list-sub">A post that does not exist: its link shows what a missing page looks like.</span>
        </span>
        <span className="list-meta">
          <span className="badge badge-warn">Test entry</span>
        </span>
        <Icon name="arrow" size={18} />
      </AppLink>
    </li>
  );
}

export function Component() {
  const { posts: read } = reads.useReads();
  const search = useSearch(parsePostsSearch);
  const posts = read.data;
  const { busy, skeletons } = useListLoading(paths.posts);
  const state: ListLinkState = { list: postsHref(search.page) };
  const apiPage = toApiPage(search.page);

  return (
    <div className="stack-lg samples">
      <PageHeader eyebrow="Samples" title="Posts">
        <p>Posts from JSONPlaceholder, six a page. Open one to see its author, then its comments.</p>
      </PageHeader>

      {read.error ? <SampleFailure error={read.error} what="the posts" service="posts" refresh={posts !== undefined} onRetry={() => void read.mutate()} retrying={read.isValidating} /> : null}
      <StaleNotice freshness={posts?.freshness} service="posts" onRetry={() => void read.mutate()} retrying={read.isValidating} />

      {skeletons || (!posts && read.isValidating) ? (
        <CardSkeletons count={6} what="the posts" variant="row" />
      ) : posts ? (
        <PagedList
          page={search.page}
          pageSize={posts.pageSize}
          total={posts.total}
          count={posts.items.length}
          hrefFor={postsHref}
          label="Post pages"
          noun="posts"
          empty={
            <EmptyState icon="post" title="No posts">
              JSONPlaceholder has no posts to show.
            </EmptyState>
          }
        >
          <ul className="list-card smp-posts" aria-label="Posts" aria-busy={busy}>
            {search.page === 1 ? <FakePostRow state={state} /> : null}
            {posts.items.map((post, i) => (
              <PostRow key={post.id} post={post} number={postNumber(apiPage, posts.pageSize, i)} state={state} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </div>
  );
}
