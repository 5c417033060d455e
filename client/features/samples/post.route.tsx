import './samples.css';
import { useLocation, useParams } from 'react-router';
import type { PostWithAuthor } from '@contracts/samples.contract';
import { postReads } from '@pages/samples.reads';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { SampleFailure } from './components/sample-failure';
import { StaleNotice } from './components/stale-notice';
import { listFrom } from './samples.api';

/**
 * `/shell/posts/:postId`: a post and its author. An id that is not a positive integer (the list's
 * fake "i-do-not-exist") is not found at once, without a call; an id JSONPlaceholder does not know
 * is not found too.
 */
const reads = routeReads(postReads);
export const { loader } = reads;
export const handle = { title: 'Post', ...reads.handle };

function AuthorCard({ author }: { author: PostWithAuthor['author'] }) {
  return (
    <section className="card" aria-labelledby="author-title">
      <h2 id="author-title" className="card-heading">
        <Icon name="user" /> Author
      </h2>
      {author ? (
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{author.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${author.email}`}>{author.email}</a>
            </dd>
          </div>
          <div>
            <dt>Company</dt>
            <dd>{author.company}</dd>
          </div>
          <div>
            <dt>Username</dt>
            <dd>{author.username}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted">JSONPlaceholder does not know who wrote this post.</p>
      )}
    </section>
  );
}

export function Component() {
  const { post: read } = reads.useReads();
  // The loader has checked it: an id.
  const id = Number(useParams().postId);
  const location = useLocation();
  const post = read.data;
  const deepTo = paths.postDeep(id);

  return (
    <div className="stack-lg samples">
      <AppLink to={listFrom(location.state, paths.posts)} className="back-link">
        ← All posts
      </AppLink>
      {post ? (
        <>
          <PageHeader
            eyebrow={`Post ${post.id}`}
            title={post.title}
            actions={
              <AppLink to={deepTo} state={location.state} className="btn">
                Read the comments <Icon name="arrow" size={18} />
              </AppLink>
            }
          />
          {read.error ? <SampleFailure error={read.error} what="this post" service="posts" refresh onRetry={() => void read.mutate()} retrying={read.isValidating} /> : null}
          <StaleNotice freshness={post.freshness} service="posts" onRetry={() => void read.mutate()} retrying={read.isValidating} />
          <div className="smp-post-layout">
            <article className="card smp-post-body" aria-label="The post">
              <p>{post.body}</p>
            </article>
            <AuthorCard author={post.author} />
          </div>
        </>
      ) : (
        <>
          <PageHeader eyebrow="Post" title={`Post ${id}`} />
          {read.error ? <SampleFailure error={read.error} what="this post" service="posts" onRetry={() => void read.mutate()} retrying={read.isValidating} /> : null}
        </>
      )}
    </div>
  );
}
