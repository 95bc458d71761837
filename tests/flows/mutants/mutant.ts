/** One mutant of the walk's set (a patch in tests/flows/mutants/), as its header describes it. */
export interface Mutant {
  file: string;
  id: string;
  title: string;
  machines: string[];
  suites: string;
  /** The patch changes what the browser runs (src/, contract/, index.html): the SPA is rebuilt. */
  touchesSpa: boolean;
}

/** The header lines of a mutant's patch: `Mutant:`, `Machines:` (comma separated), `Suites:`. */
export function parseMutant(file: string, text: string): Mutant {
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1]?.trim();
  const title = field('Mutant');
  const machines = field('Machines');
  if (!title || !machines) throw new Error(`${file}: needs 'Mutant:' and 'Machines:' lines before the diff`);
  const touched = [...text.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1] as string);
  if (!touched.length) throw new Error(`${file}: no diff`);
  return {
    file,
    id: file.split('-')[0] as string,
    title,
    machines: machines.split(',').map((m) => m.trim()),
    suites: field('Suites') ?? '',
    touchesSpa: touched.some((p) => /^(src|contract)\//.test(p) || p === 'index.html'),
  };
}
