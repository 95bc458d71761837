// The docs keep their promises (decision 060): every decision record has a Status line and a row in
// docs/decisions/README.md, every repository path named in the docs or in a code comment exists, and
// every docs/product.md#<anchor> cited exists, and that nothing cites the brief (its SPEC and DESIGN files live
// outside the repository). Run by `npm run lint:docs` (part of `npm run lint`).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const problems = [];
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
})
  .split('\n')
  .filter((f) => f && existsSync(f));

// Decision records: a Status line each, and each one in the index.
const decisions = tracked.filter((f) => /^docs\/decisions\/\d{3}-.+\.md$/.test(f));
const index = existsSync('docs/decisions/README.md') ? readFileSync('docs/decisions/README.md', 'utf8') : '';
const NUMBERS = String.raw`\d{3}(?:(?:, | and )\d{3})*`;
const STATUS = new RegExp(
  `^Status: (?:accepted(?:, amended by ${NUMBERS})?|superseded by ${NUMBERS})\\b`,
  'm',
);
for (const f of decisions) {
  const text = readFileSync(f, 'utf8');
  if (!STATUS.test(text))
    problems.push(`${f}: no "Status: accepted | superseded by NNN | amended by NNN" line`);
  const by = text.match(new RegExp(`^Status: .*?by (${NUMBERS})`, 'm'));
  for (const n of by ? by[1].match(/\d{3}/g) : []) {
    if (!decisions.some((d) => d.startsWith(`docs/decisions/${n}-`)))
      problems.push(`${f}: its status names decision ${n}, which has no record`);
  }
  const name = f.slice('docs/decisions/'.length);
  if (!index.includes(`(${name})`)) problems.push(`docs/decisions/README.md: no row for ${name}`);
}

// Paths named in docs and in code comments. A line that says the path is gone (a record of history)
// names it on purpose: 'removed', 'deleted', 'was moved', 'gone', 'no longer'.
const gone = /\b(removed|deleted|was moved|moved to|gone|no longer|considered|not written yet|not done)\b/i;
const anchors = new Set(
  [...readFileSync('docs/product.md', 'utf8').matchAll(/<a id="([a-z0-9-]+)"><\/a>/g)].map((m) => m[1]),
);
const PATH = /(?<![\w./@-])((?:src|server|contract|tests|scripts|docs)\/[\w./$-]*[\w$])(#[a-z0-9-]+)?/g;
// A path exists as written, as a module specifier (`contract/auth` → contract/auth.ts), or as a
// decision number (`docs/decisions/027`). Output folders (tests/.tmp) and placeholders are skipped.
const exists = (path) =>
  existsSync(path) ||
  ['.ts', '.tsx', '.mjs'].some((ext) => existsSync(path + ext)) ||
  (/^docs\/decisions\/\d{3}$/.test(path) && decisions.some((d) => d.startsWith(`${path}-`)));
const skipped = (path) =>
  /[*{}<>]/.test(path) ||
  /\.(go|py|rb|java)$/.test(path) || // another project's source, named as a reference
  path.includes('...') ||
  path.includes('NNN') ||
  path.startsWith('tests/.tmp') ||
  /\/x\./.test(path);
// The brief the project started from is not in the repository: cite docs/product.md instead.
const OUTSIDE = /\b(SPEC|DESIGN)(\.md\b| sections? \d| ?§)/;
const commentOf = (line) => {
  const t = line.trimStart();
  if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) return line;
  const i = line.indexOf(' // ');
  return i >= 0 ? line.slice(i) : '';
};
for (const f of tracked) {
  const isDoc = f.endsWith('.md');
  const isCode = /\.(ts|tsx|mjs|cjs|js)$/.test(f) && !f.includes('routeTree.gen');
  if (!isDoc && !isCode) continue;
  const lines = readFileSync(f, 'utf8').split('\n');
  lines.forEach((line, n) => {
    const text = isDoc ? line : commentOf(line);
    if (OUTSIDE.test(text) && !f.startsWith('docs/decisions/060'))
      problems.push(`${f}:${n + 1}: cites the brief outside the repository; cite docs/product.md#<anchor>`);
    for (const m of text.matchAll(PATH)) {
      const path = m[1].replace(/\.$/, '');
      if (skipped(path) || gone.test(line)) continue;
      if (!exists(path)) problems.push(`${f}:${n + 1}: names ${path}, which does not exist`);
      else if (m[2] && path === 'docs/product.md' && !anchors.has(m[2].slice(1)))
        problems.push(`${f}:${n + 1}: cites ${path}${m[2]}, an anchor product.md lacks`);
    }
    for (const m of text.matchAll(/docs\/product\.md#[a-z0-9-]+((?:,? (?:and )?#[a-z0-9-]+)+)/g)) {
      for (const a of m[1].matchAll(/#([a-z0-9-]+)/g))
        if (!anchors.has(a[1])) problems.push(`${f}:${n + 1}: cites #${a[1]}, an anchor product.md lacks`);
    }
  });
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} docs problem(s); see decision 060.`);
  process.exit(1);
}
console.log(`docs: ${decisions.length} decisions with a status, every named path and anchor exists`);
