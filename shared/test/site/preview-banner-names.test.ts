import { describe, expect, it } from 'vitest';
import { previewBannerRenderer, type PreviewInfo } from '../../src/site/preview-banner';

/** How the preview banner names a review's preview: by the review's title, never by a raw `rev_` id. */
const review = (label: string): PreviewInfo => ({
  kind: 'review',
  label,
  branch: 'main',
  productionUrl: 'http://acme-docs.localhost:4000/',
  changes: { added: [], changed: [{ path: 'guides/setup', title: 'Setup' }], removed: [] },
});
/** The banner's sentence as a reader sees it (tags dropped). */
const sentence = (html: string) => /<p class="q-preview-label"[^>]*>([\s\S]*?)<\/p>/.exec(html)![1]!.replace(/<[^>]+>/g, '');

describe('preview banner names', () => {
  it("names a review's preview by the review's title", () => {
    const html = previewBannerRenderer(review('Fix the intro'))('guides/setup');
    expect(sentence(html)).toBe('Preview of review Fix the intro');
    expect(html).toContain('title="Preview of review Fix the intro"');
  });

  it('names previews built before by the title alone, or by the end of the id when the review had none', () => {
    expect(sentence(previewBannerRenderer(review('Review rev_4fT0aZ9qLm2xYcW8: Fix the intro'))())).toBe('Preview of review Fix the intro');
    const bare = previewBannerRenderer(review('Review rev_4fT0aZ9qLm2xYcW8'))();
    expect(sentence(bare)).toBe('Preview of review …2xYcW8');
    expect(bare).not.toContain('rev_');
  });

  it("shortens a review channel's id when the preview has no data beyond its channel", () => {
    const html = previewBannerRenderer({ channel: 'review-4ft0az9qlm2xycw8' })();
    expect(sentence(html)).toBe('This is a preview (review …2xycw8), not the production site');
    expect(sentence(previewBannerRenderer({ channel: 'feature-login' })())).toBe('This is a preview (feature-login), not the production site');
  });
});
