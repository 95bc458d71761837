import { EmptyState } from '../../../components/empty-state';
import { PageBody, PageHeader } from '../../../components/page-header';

/** A menu destination whose screen arrives in a later issue: its title and a neutral empty state. */
export function SectionPlaceholder({ title, subtitle }: { title: string; subtitle?: string }) {
  return (
    <PageBody>
      <PageHeader title={title} {...(subtitle ? { subtitle } : {})} />
      <EmptyState
        title="Nothing to show yet"
        description="Records will appear here once they are available."
      />
    </PageBody>
  );
}
