import './samples.css';
import { useLocation, useParams } from 'react-router';
import { postDeepReads } from '@pages/samples.reads';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { SampleFailure } from './components/sample-failure';
import { StaleNotice } from './components/stale-notice';

/**
 * `/shell/posts/:postId/deep`: the post with its comments, read side by side (the post is the
 * same cache entry as its own page). A malformed or unknown id is not found.
 */
const reads = routeReads(postDeepReads);
export const { loader } = reads;
export const handle = { title: 'Post and comments', ...reads.handle };

export function Component() {
  const { post: postRead, comments: commentRead } = reads.useReads();
  // The loader has checked it: an id.
  const id = Number(useParams().postId);
  const location = useLocation();
  const post = postRead.data;
  const comments = commentRead.data;
  const count = comments?.items.length ?? 0;

  return (
    <div className="stack-lg samples">
      <AppLink to={paths.post(id)} state={location.state} className="back-link">
        ← Back to the post
      </AppLink>
      <PageHeader eyebrow={`Post ${id}${post?.author ? ` · by ${post.author.name}` : ''}`} title={post?.title ?? `Post ${id}`} />
      {postRead.error ? <SampleFailure error={postRead.error} what="the post" service="posts" refresh={post !== undefined} onRetry={() => void postRead.mutate()} retrying={postRead.isValidating} /> : null}
      <StaleNotice freshness={post?.freshness ?? comments?.freshness} service="posts" onRetry={() => void postRead.mutate()} retrying={postRead.isValidating} />
      {post ? (
        <article className="card smp-post-body" aria-label="The post">
          <p>{post.body}</p>
        </article>
      ) : null}

      <section className="stack" aria-labelledby="comments-title">
        <h2 id="comments-title" className="section-title">
          {comments ? `${count} ${count === 1 ? 'comment' : 'comments'}` : 'Comments'}
        </h2>
        {commentRead.error ? (
          <SampleFailure error={commentRead.error} what="the comments" service="posts" refresh={comments !== undefined} onRetry={() => void commentRead.mutate()} retrying={commentRead.isValidating} />
        ) : null}
        {comments && count === 0 ? (
          <section className="card">
            <EmptyState icon="post" title="No comments yet">
              Nobody has commented on this post.
            </EmptyState>
          </section>
        ) : null}
        {comments && count > 0 ? (
          <ol className="smp-comments" aria-label="Comments">
            {comments.items.map((comment) => (
              <li key={comment.id} className="card smp-comment">
                <h3 className="smp-comment-title">{comment.name}</h3>
                <p className="muted small">
                  <a href={`mailto:${comment.email}`}>{comment.email}</a>
                </p>
                <p className="smp-comment-body">{comment.body}</p>
              </li>
            ))}
          </ol>
        ) : null}
      </section>
    </div>
  );
}
