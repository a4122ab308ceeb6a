import { describe, expect, it } from 'vitest';
import { countBlocks, diffBlocks } from '../src/renderer/components/reviews/block-diff';
import { threadsOf } from '../src/renderer/components/reviews/threads';
import { openedBy } from '../src/renderer/components/reviews/format';
import { changeSetImageFor, changeSetImages, sameImages } from '../src/renderer/components/reviews/change-set-images';

describe('the rendered diff of a review marks changed blocks', () => {
  it('finds nothing changed in equal renderings', () => {
    const ops = diffBlocks(['<h2>A</h2>', '<p>x</p>'], ['<h2>A</h2>', '<p>x</p>']);
    expect(ops.map((o) => o.kind)).toEqual(['same', 'same']);
    expect(countBlocks(ops)).toEqual({ added: 0, changed: 0, removed: 0 });
  });

  it('marks a paragraph typed at the end as added', () => {
    const ops = diffBlocks(['<h2>A</h2>', '<p>x</p>'], ['<h2>A</h2>', '<p>x</p>', '<p>new</p>']);
    expect(ops).toEqual([
      { kind: 'same', before: 0, after: 0 },
      { kind: 'same', before: 1, after: 1 },
      { kind: 'added', after: 2 },
    ]);
  });

  it('pairs an edited paragraph as changed and keeps the blocks around it', () => {
    const ops = diffBlocks(['<h2>A</h2>', '<p>the the</p>', '<p>end</p>'], ['<h2>A</h2>', '<p>the</p>', '<p>end</p>']);
    expect(ops).toEqual([
      { kind: 'same', before: 0, after: 0 },
      { kind: 'changed', before: 1, after: 1 },
      { kind: 'same', before: 2, after: 2 },
    ]);
  });

  it('shows a deleted block where it was, between the blocks that stayed', () => {
    const ops = diffBlocks(['<p>1</p>', '<p>2</p>', '<p>3</p>'], ['<p>1</p>', '<p>3</p>']);
    expect(ops).toEqual([
      { kind: 'same', before: 0, after: 0 },
      { kind: 'removed', before: 1 },
      { kind: 'same', before: 2, after: 1 },
    ]);
  });

  it('aligns moved and inserted blocks in the middle of a page', () => {
    const before = ['h', 'a', 'b', 'c', 'd', 'f'];
    const after = ['h', 'x', 'a', 'B', 'c', 'y', 'f'];
    const ops = diffBlocks(before, after);
    // x and y are new, b was edited into B, d was removed
    expect(ops.map((o) => o.kind)).toEqual(['same', 'added', 'same', 'changed', 'same', 'changed', 'same']);
    expect(countBlocks(ops)).toEqual({ added: 1, changed: 2, removed: 0 });
    // every block of both renderings appears exactly once
    const seenAfter = ops.flatMap((o) => ('after' in o ? [o.after] : []));
    const seenBefore = ops.flatMap((o) => ('before' in o ? [o.before] : []));
    expect(seenAfter).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seenBefore).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('marks everything added for a new page and everything removed for a deleted one', () => {
    expect(countBlocks(diffBlocks([], ['a', 'b']))).toEqual({ added: 2, changed: 0, removed: 0 });
    expect(countBlocks(diffBlocks(['a', 'b'], []))).toEqual({ added: 0, changed: 0, removed: 2 });
  });
});

describe('comments of a review file group into threads', () => {
  const c = (id: string, parentId: string | null, lineStart: number, createdAt: string) =>
    ({ id, parentId, lineStart, lineEnd: lineStart, createdAt, reviewId: 'rev_1', path: 'a.md', revision: 1, body: id, author: null, outdated: false, resolved: false, resolvedBy: null, suggestion: null, mentions: [] as Array<{ id: string; name: string; email: string }>, pending: false, problem: null }) as const;

  it('puts replies (also replies to replies) after their first comment, threads by line', () => {
    const threads = threadsOf([
      c('r2', 'r1', 9, '2026-01-01T00:00:03Z'),
      c('t2', null, 3, '2026-01-01T00:00:04Z'),
      c('t1', null, 9, '2026-01-01T00:00:01Z'),
      c('r1', 't1', 9, '2026-01-01T00:00:02Z'),
    ]);
    expect(threads.map((t) => t.map((x) => x.id))).toEqual([['t2'], ['t1', 'r1', 'r2']]);
  });

  it('starts a thread with a reply whose first comment is not known here', () => {
    expect(threadsOf([c('r9', 'cmt_gone', 4, '2026-01-01T00:00:00Z')]).map((t) => t.map((x) => x.id))).toEqual([['r9']]);
  });
});

describe("the rendered diff shows the change set's images", () => {
  const png = 'iVBORw0KGgo=';
  const files = [
    { path: 'docs/images/flow.png', after: png },
    { path: 'docs/images/logo.svg', after: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
    { path: 'docs/images/gone.png', after: null },
    { path: 'docs/guide.mdx', after: '# Guide' },
  ];

  it('makes data: URLs of added images, base64 bytes or SVG text, and leaves pages and deleted files out', () => {
    const images = changeSetImages(files);
    expect([...images.keys()]).toEqual(['docs/images/flow.png', 'docs/images/logo.svg']);
    expect(images.get('docs/images/flow.png')).toBe(`data:image/png;base64,${png}`);
    expect(images.get('docs/images/logo.svg')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(files[1]!.after!)}`);
  });

  it("finds the image a preview URL stands for, under the docs root, and nothing for the reader's other files", () => {
    const images = changeSetImages(files);
    expect(changeSetImageFor(images, '/_quire-preview/prj_1/images/flow.png')).toBe(`data:image/png;base64,${png}`);
    expect(changeSetImageFor(images, '/_quire-preview/local%3Aab/images/logo.svg')).toMatch(/^data:image\/svg\+xml/);
    expect(changeSetImageFor(images, '/_quire-preview/prj_1/images/other.png')).toBeNull();
    expect(changeSetImageFor(images, `data:image/png;base64,${png}`)).toBeNull();
    expect(changeSetImageFor(images, null)).toBeNull();
  });

  it('keeps the same map when a refreshed review holds the same images', () => {
    expect(sameImages(changeSetImages(files), changeSetImages([...files]))).toBe(true);
    expect(sameImages(changeSetImages(files), changeSetImages(files.slice(1)))).toBe(false);
  });
});

describe('who opened a review, in the Reviews list', () => {
  it('names the author, the docs agent for an agent review without author, and you for a local review', () => {
    expect(openedBy({ author: { name: 'Rita' }, labels: [] })).toBe('Rita');
    expect(openedBy({ author: null, labels: ['agent'] })).toBe('Docs agent');
    expect(openedBy({ author: null })).toBe('you');
  });
});
