import { useEffect, useState } from 'react';
import { errorMessage } from '../../trpc';
import { reviewsApi } from './api';
import { OpenPreviewLink } from '../OpenPreviewLink';

type Report = Awaited<ReturnType<typeof reviewsApi.report.query>>;
type Finding = Report['brokenLinks'][number];

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const trail = (groups: string[] | null) => (groups && groups.length ? groups.filter(Boolean).join(' › ') || 'top level' : 'top level');

/** One finding as a list item: where (file and line), the rule and what it says. */
function FindingItem({ f }: { f: Finding }) {
  return (
    <li>
      <code>
        {f.path}:{f.line}
      </code>{' '}
      <span className={`severity-${f.severity}`}>{f.ruleId}</span> {f.message}
    </li>
  );
}

function Findings({ title, items }: { title: string; items: Finding[] }) {
  if (items.length === 0) return null;
  return (
    <div className="merge-report-part">
      <h3>{title}</h3>
      <ul>
        {items.map((f, i) => (
          <FindingItem key={`${f.path}:${f.line}:${f.ruleId}:${i}`} f={f} />
        ))}
      </ul>
    </div>
  );
}

/**
 * The pre-merge report at the top of a review (region "Merge report"): pages changed with titles,
 * lint findings added and fixed, broken links and missing images the change set introduces, navigation
 * changes and redirects, computed by the desktop core offline with the engine the server uses
 * (`reviews.report`), and the server's preview link when the review has one. Read again when the
 * review's revision changes (`revisionKey`).
 */
export function MergeReport({ projectId, reviewId, revisionKey }: { projectId: string; reviewId: string; revisionKey: string }) {
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let stop = false;
    reviewsApi.report.query({ projectId, reviewId }).then(
      (r) => {
        if (stop) return;
        setReport(r);
        setError(null);
      },
      (err: unknown) => !stop && setError(errorMessage(err)),
    );
    return () => {
      stop = true;
    };
  }, [projectId, reviewId, revisionKey]);

  return (
    <section className="merge-report" aria-label="Merge report" tabIndex={0}>
      <h2>Merge report</h2>
      {error && <p role="alert">The merge report cannot be computed: {error}</p>}
      {!report && !error && <p className="note">Checking what this review changes...</p>}
      {report && (
        <>
          <p className="merge-report-summary">
            {plural(report.pages.length, 'page')} changed · {plural(report.lint.added.length, 'lint finding')} added, {report.lint.fixed.length} fixed ·{' '}
            {plural(report.brokenLinks.length, 'broken link')} · {plural(report.missingImages.length, 'missing image')} ·{' '}
            {plural(report.navigation.length, 'navigation change')} · {plural(report.redirects.added.length, 'redirect')} added
            {report.previewUrl && (
              <>
                {' · '}
                <OpenPreviewLink projectId={projectId} url={report.previewUrl}>
                  Preview of this review
                </OpenPreviewLink>
              </>
            )}
          </p>
          {(report.configErrors.head ?? report.configErrors.base) && (
            <p role="alert">The site configuration does not load: {report.configErrors.head ?? report.configErrors.base}</p>
          )}
          {report.pages.length > 0 && (
            <div className="merge-report-part">
              <h3>Pages changed</h3>
              <ul>
                {report.pages.map((p) => (
                  <li key={p.path}>
                    <span className={`change-kind change-${p.change}`}>{p.change}</span> {p.title} <code>{p.path}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <Findings title="Broken links" items={report.brokenLinks} />
          <Findings title="Missing images" items={report.missingImages} />
          <Findings title="Lint findings added" items={report.lint.added} />
          <Findings title="Lint findings fixed" items={report.lint.fixed} />
          {report.navigation.length > 0 && (
            <div className="merge-report-part">
              <h3>Navigation</h3>
              <ul>
                {report.navigation.map((n) => (
                  <li key={n.page}>
                    <code>{n.page}</code>{' '}
                    {n.change === 'added' ? `added to ${trail(n.to)}` : n.change === 'removed' ? `removed from ${trail(n.from)}` : `moved from ${trail(n.from)} to ${trail(n.to)}`}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {report.redirects.added.length + report.redirects.removed.length > 0 && (
            <div className="merge-report-part">
              <h3>Redirects</h3>
              <ul>
                {report.redirects.added.map((r) => (
                  <li key={`+${r.source}`}>
                    added <code>{r.source}</code> → <code>{r.destination}</code>
                  </li>
                ))}
                {report.redirects.removed.map((r) => (
                  <li key={`-${r.source}`}>
                    removed <code>{r.source}</code> → <code>{r.destination}</code>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
