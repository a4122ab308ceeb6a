import { describe, expect, it } from 'vitest';
import { createLinter } from '../../src/lint/linter';
import { PatternError } from '../../src/lint/safe-pattern';
import { GlossaryTermSchema, StyleRuleSchema, type StyleRuleInput } from '../../src/lint/types';

const rule = (input: StyleRuleInput) => StyleRuleSchema.parse(input);
const page = (body: string) => `---\ntitle: Guide\n---\n\n${body}\n`;
const ids = (findings: { ruleId: string }[]) => findings.map((f) => f.ruleId);

describe('built-in prose rules', () => {
  const linter = createLinter();

  it('finds a repeated word and fixes it, but not two different words', async () => {
    const text = page('Open the the file. Then then save it.');
    const found = (await linter.lint(text, 'guide.mdx')).filter((f) => f.ruleId === 'prose/repeated-words');
    expect(found).toHaveLength(2);
    expect(found[0]).toMatchObject({ line: 5, column: 9, message: '"the" is repeated.' });
    const fixed = await linter.autoFix(text, 'guide.mdx', ['prose/repeated-words']);
    expect(fixed.text).toBe(page('Open the file. Then save it.'));
    expect(ids(await linter.lint(fixed.text, 'guide.mdx'))).not.toContain('prose/repeated-words');
    expect(ids(await linter.lint(page('Open that file.'), 'guide.mdx'))).not.toContain('prose/repeated-words');
  });

  it('suggests active voice for "was written", not for "was late"', async () => {
    const found = await linter.lint(page('The page was written by the team. The train was late.'), 'guide.mdx');
    const passive = found.filter((f) => f.ruleId === 'prose/passive-voice');
    expect(passive).toHaveLength(1);
    expect(passive[0]).toMatchObject({ severity: 'suggestion', message: expect.stringContaining('"was written"') });
  });

  it('looks only at prose: code, inline code, front matter and component attributes are left alone', async () => {
    const text = `---\ntitle: the the\n---\n\nUse \`the the\` here.\n\n\`\`\`bash\necho the the\n\`\`\`\n\n<Card title="the the">Fine text.</Card>\n`;
    expect(ids(await linter.lint(text, 'guide.mdx'))).not.toContain('prose/repeated-words');
  });
});

describe('style rules (Vale shapes)', () => {
  it('existence: flags each token, whole words only, with the message template', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'weasel', type: 'existence', tokens: ['simply', 'just'], message: 'Drop "%s".' })] });
    const found = (await linter.lint(page('Simply run it. Justify nothing; just go.'), 'g.mdx')).filter((f) => f.ruleId === 'style/weasel');
    expect(found.map((f) => f.message)).toEqual(['Drop "Simply".', 'Drop "just".']);
  });

  it('substitution: suggests the preferred word keeping its capital, and the fix lints clean', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'plain', type: 'substitution', swap: { utilize: 'use', 'in order to': 'to' } })] });
    const text = page('Utilize the CLI in order to deploy.');
    const found = (await linter.lint(text, 'g.mdx')).filter((f) => f.ruleId === 'style/plain');
    expect(found.map((f) => f.message)).toEqual(['Use "Use" instead of "Utilize".', 'Use "to" instead of "in order to".']);
    const fixed = await linter.autoFix(text, 'g.mdx');
    expect(fixed.text).toBe(page('Use the CLI to deploy.'));
    expect(fixed.edits.map((e) => e.ruleId)).toEqual(['style/plain', 'style/plain']);
    expect(ids(await linter.lint(fixed.text, 'g.mdx'))).not.toContain('style/plain');
  });

  it('occurrence: flags the first use past the maximum on a page', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'note', type: 'occurrence', token: 'note', max: 2 })] });
    expect(ids(await linter.lint(page('Note one. Note two.'), 'g.mdx'))).not.toContain('style/note');
    const found = (await linter.lint(page('Note one. Note two.\n\nNote three. Note four.'), 'g.mdx')).filter((f) => f.ruleId === 'style/note');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 7, column: 1 });
  });

  it('capitalization: sentence-case headings keep acronyms, inner capitals and exceptions, and the fix applies', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'headings', type: 'capitalization', match: '$sentence', exceptions: ['Quire'] })] });
    const text = page('## Getting Started With Quire on GitHub and the API\n\nText.\n\n## Already fine here');
    const found = (await linter.lint(text, 'g.mdx')).filter((f) => f.ruleId === 'style/headings');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toBe('Write the heading in sentence case: "Getting started with Quire on GitHub and the API".');
    const fixed = await linter.autoFix(text, 'g.mdx', ['style/headings']);
    expect(fixed.text).toContain('## Getting started with Quire on GitHub and the API\n');
  });

  it('capitalization: title case keeps small words low inside the title', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'titles', type: 'capitalization', match: '$title' })] });
    const fixed = await linter.autoFix(page('## the guide to writing in a team'), 'g.mdx');
    expect(fixed.text).toContain('## The Guide to Writing in a Team\n');
  });

  it('repetition: the same token twice in a row', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'rep', type: 'repetition', tokens: ['very'] })], settings: { rules: { 'prose/repeated-words': { enabled: false } } } });
    const text = page('It is very very fast, very good.');
    const found = (await linter.lint(text, 'g.mdx')).map((f) => f.ruleId);
    expect(found.filter((id) => id === 'style/rep')).toHaveLength(1);
    expect((await linter.autoFix(text, 'g.mdx', ['style/rep'])).text).toBe(page('It is very fast, very good.'));
  });

  it('sentence-length: flags the long sentence only', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'short', type: 'sentence-length', max: 5 })] });
    const found = (await linter.lint(page('Short one here. This sentence has rather more than five words in it.'), 'g.mdx')).filter((f) => f.ruleId === 'style/short');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: 5, column: 17, message: 'This sentence has 10 words; keep sentences to 5.' });
  });

  it('refuses a pattern RE2 cannot run (backreferences, lookaround) when the linter is made', () => {
    expect(() => createLinter({ styleRules: [rule({ name: 'bad', type: 'existence', tokens: ['(a)\\1'] })] })).toThrow(PatternError);
  });

  it('runs a catastrophic-backtracking pattern in linear time', async () => {
    const linter = createLinter({ styleRules: [rule({ name: 'evil', type: 'existence', tokens: ['(a+)+b'] })] });
    const found = await linter.lint(page(`${'a'.repeat(5_000)}c`), 'g.mdx');
    expect(ids(found)).not.toContain('style/evil');
  });
});

describe('glossary', () => {
  const linter = createLinter({ glossary: [GlossaryTermSchema.parse({ term: 'GitHub', avoid: ['Git Hub'], caseSensitive: true }), GlossaryTermSchema.parse({ term: 'sign in', avoid: ['login to', 'log-in'] })] });

  it('prefers the term over its synonyms and its own case, with fixes', async () => {
    const text = page('Push to Github, or to Git Hub. Log-in first. GitHub is fine.');
    const found = (await linter.lint(text, 'g.mdx')).filter((f) => f.ruleId.startsWith('glossary/'));
    expect(found.map((f) => [f.ruleId, f.message])).toEqual([
      ['glossary/github', 'Write "GitHub" as the glossary does, not "Github".'],
      ['glossary/github', 'Use the glossary term "GitHub" instead of "Git Hub".'],
      ['glossary/sign-in', 'Use the glossary term "sign in" instead of "Log-in".'],
    ]);
    expect((await linter.autoFix(text, 'g.mdx')).text).toBe(page('Push to GitHub, or to GitHub. sign in first. GitHub is fine.'));
  });
});

describe('structure (markdownlint)', () => {
  const linter = createLinter();

  it('finds skipped heading levels and trailing spaces, and fixes the spaces', async () => {
    const text = page('## Start\n\n#### Too deep\n\nText with trailing spaces.   ');
    const found = await linter.lint(text, 'g.mdx');
    expect(ids(found)).toEqual(expect.arrayContaining(['markdown/heading-increment', 'markdown/no-trailing-spaces']));
    const fixed = await linter.autoFix(text, 'g.mdx', ['markdown/no-trailing-spaces']);
    expect(fixed.text).toContain('Text with trailing spaces.\n');
    expect(ids(await linter.lint(fixed.text, 'g.mdx'))).not.toContain('markdown/no-trailing-spaces');
  });

  it('accepts MDX components and a front matter title without structure findings', async () => {
    const text = page('<Note>Remember this.</Note>\n\n## Setup\n\n<Steps>\n  <Step title="One">Do it.</Step>\n</Steps>');
    expect(await linter.lint(text, 'g.mdx')).toEqual([]);
  });

  it('reads no Markdown inside MDX comments and expressions, but still inside the text around them', async () => {
    const text = page('{/* a comment */}\n\nHello {user?.name ?? "* there *"}.\n\nSome * spaced * emphasis.');
    const found = (await linter.lint(text, 'g.mdx')).filter((f) => f.ruleId === 'markdown/no-space-in-emphasis');
    expect(found.map((f) => f.line)).toEqual([9, 9]);
    // the same characters in a .md page are text, and are checked
    expect(ids(await linter.lint(page('{/* a comment */}'), 'g.md'))).toContain('markdown/no-space-in-emphasis');
  });
});

describe('settings and bad pages', () => {
  it('turns rules off and changes their severity', async () => {
    const linter = createLinter({ settings: { rules: { 'prose/passive-voice': { enabled: false }, 'prose/repeated-words': { enabled: true, severity: 'error' } } } });
    const found = await linter.lint(page('It was written by the the team.'), 'g.mdx');
    expect(found.map((f) => [f.ruleId, f.severity])).toEqual([['prose/repeated-words', 'error']]);
  });

  it('reports an MDX page that does not parse as one finding instead of throwing', async () => {
    const found = await createLinter().lint(page('<Note>never closed'), 'g.mdx');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ ruleId: 'mdx/syntax', severity: 'error' });
  });

  it('parses .md pages as Markdown, where a bare "<" is text', async () => {
    const found = await createLinter().lint('# Title\n\nUse a < b in math.\n', 'notes.md');
    expect(ids(found)).not.toContain('mdx/syntax');
  });
});
