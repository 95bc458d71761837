import { getRouteApi } from '@tanstack/react-router';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Tabs } from '../../../../components/ui/tabs';
import { applyTabChange } from '../../../../lib/list-search';
import { useCan } from '../../../../lib/use-can';
import { RolesTab } from './roles-tab';
import type { StaffTab } from './staff-search';
import { UsersTab } from './users-tab';

const route = getRouteApi('/dashboard/staff/');

/** /dashboard/staff: 'Staff & Roles / Manage Staff and Roles' with the Users and Roles tabs. */
export function StaffScreen() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const can = useCan();
  const tabs = [
    ...(can('staff.view') ? [{ value: 'users' as const, label: 'Users', content: <UsersTab /> }] : []),
    ...(can('roles.view') ? [{ value: 'roles' as const, label: 'Roles', content: <RolesTab /> }] : []),
  ];
  // A tab the user may not view falls back to the one they may.
  const active: StaffTab = tabs.some((t) => t.value === search.activeTab)
    ? search.activeTab
    : (tabs[0]?.value ?? 'users');

  return (
    <PageBody>
      <PageHeader title="Staff & Roles / Manage Staff and Roles" />
      <Tabs
        label="Staff and roles"
        value={active}
        onValueChange={(activeTab) => void navigate({ search: (prev) => applyTabChange(prev, activeTab) })}
        items={tabs}
      />
    </PageBody>
  );
}
