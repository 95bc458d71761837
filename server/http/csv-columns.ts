import type { Activity } from '../../contract/activities';
import type { Customer } from '../../contract/customers';
import type { ExtendedService } from '../../contract/extended-services';
import type { Partner } from '../../contract/partners';
import type { Reward } from '../../contract/rewards';
import type { Role } from '../../contract/roles';
import type { StaffUser } from '../../contract/staff';
import type { EligibleUser, PointsEligibleUser, Visit } from '../../contract/visits';
import type { CsvColumn } from './csv-export';

/**
 * The columns of every CSV answer of the API, in one place: the routes write their files with them
 * (server/http/csv-export.ts `csvText`), and the reference shows each file's example made with them
 * from the list's own example record (server/api-examples.ts `csvExampleOf`), so the documented
 * header row is the one the server writes (server/csv-answers.test.ts fetches each and compares).
 */

export const rewardCsvColumns: CsvColumn<Reward>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Code', value: (r) => r.code },
  { header: 'Type', value: (r) => r.rewardType },
  { header: 'Category', value: (r) => r.rewardTypeCategory },
  { header: 'Title', value: (r) => r.title },
  { header: 'Customer ID', value: (r) => r.user.id },
  { header: 'First name', value: (r) => r.user.firstName },
  { header: 'Last name', value: (r) => r.user.lastName },
  { header: 'Partner', value: (r) => r.partner.organizationName },
  { header: 'Issued amount (NGN)', value: (r) => r.issuedAmount },
  { header: 'Percentage discount', value: (r) => r.percentageDiscount },
  { header: 'Balance (NGN)', value: (r) => r.balance },
  { header: 'Status', value: (r) => r.status },
  { header: 'Expiry date', value: (r) => r.expiryDate },
  { header: 'Created', value: (r) => r.createdAt },
];

export const eligibleCsvColumns: CsvColumn<EligibleUser>[] = [
  { header: 'Customer ID', value: (e) => e.user.id },
  { header: 'First name', value: (e) => e.user.firstName },
  { header: 'Last name', value: (e) => e.user.lastName },
  { header: 'Total spent (NGN)', value: (e) => e.totalSpent },
  { header: 'Eligible', value: (e) => (e.isEligible ? 'Yes' : 'No') },
  { header: 'Reward type', value: (e) => e.rewardType },
  { header: 'Message', value: (e) => e.message },
];

export const pointsCsvColumns: CsvColumn<PointsEligibleUser>[] = [
  { header: 'ID', value: (u) => u.id },
  { header: 'Name', value: (u) => u.name },
  { header: 'Email', value: (u) => u.email },
  { header: 'Total unclaimed points', value: (u) => u.totalUnclaimedPoints },
];

export const roleCsvColumns: CsvColumn<Role>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Name', value: (r) => r.name },
  { header: 'Permissions', value: (r) => r.permissions.map((p) => p.name).join('; ') },
  { header: 'Staff', value: (r) => r.staffCount },
  { header: 'Built in', value: (r) => (r.builtIn ? 'Yes' : 'No') },
  { header: 'Created', value: (r) => r.createdAt },
];

export const partnerCsvColumns: CsvColumn<Partner>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'Organization', value: (p) => p.organizationName },
  { header: 'First name', value: (p) => p.firstName },
  { header: 'Last name', value: (p) => p.lastName },
  { header: 'Email', value: (p) => p.email },
  { header: 'Phone', value: (p) => p.phone },
  { header: 'Address', value: (p) => p.address },
  { header: 'Minimum spend to qualify (NGN)', value: (p) => p.minSpendToQualify },
  { header: 'Extended services', value: (p) => p.partnerExtendedServices.map((x) => x.title).join('; ') },
  { header: 'Status', value: (p) => p.accountStatus },
  { header: 'Created', value: (p) => p.createdAt },
];

export const staffCsvColumns: CsvColumn<StaffUser>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'First name', value: (r) => r.firstName },
  { header: 'Last name', value: (r) => r.lastName },
  { header: 'Email', value: (r) => r.email },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Role', value: (r) => r.userRole?.name },
  { header: 'Type', value: (r) => r.userType },
  { header: 'Organization', value: (r) => r.organizationName },
  { header: 'Status', value: (r) => r.accountStatus },
  { header: 'Password set', value: (r) => (r.hasPassword ? 'Yes' : 'No') },
  { header: 'Created', value: (r) => r.createdAt },
];

export const serviceCsvColumns: CsvColumn<ExtendedService>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'Title', value: (r) => r.title },
  { header: 'Description', value: (r) => r.description },
  { header: 'Partners', value: (r) => r.partnerCount },
  { header: 'Created', value: (r) => r.createdAt },
];

export const visitCsvColumns: CsvColumn<Visit>[] = [
  { header: 'ID', value: (v) => v.id },
  { header: 'Visit date', value: (v) => v.visitDate },
  { header: 'Customer ID', value: (v) => v.user.id },
  { header: 'First name', value: (v) => v.user.firstName },
  { header: 'Last name', value: (v) => v.user.lastName },
  { header: 'Attendant', value: (v) => v.attendantName },
  { header: 'Total amount (NGN)', value: (v) => v.totalAmount },
  { header: 'Partner', value: (v) => v.partner.organizationName },
  {
    header: 'Items',
    value: (v) => v.visitItems.map((i) => `${i.name} x${i.quantity} @ ${i.price}`).join('; '),
  },
];

/**
 * The Visits tab's export, for the club and the partner's staff: a visit's columns and its review's
 * state and reason (decision 075: the partner sees both; who reviewed it stays with the club).
 */
export const partnerVisitCsvColumns: CsvColumn<Visit>[] = [
  ...visitCsvColumns,
  { header: 'Review state', value: (v) => v.review.state },
  { header: 'Review reason', value: (v) => v.review.reason ?? '' },
];

export const customerCsvColumns: CsvColumn<Customer>[] = [
  { header: 'ID', value: (r) => r.id },
  { header: 'First name', value: (r) => r.firstName },
  { header: 'Last name', value: (r) => r.lastName },
  { header: 'Email', value: (r) => r.email },
  { header: 'Phone', value: (r) => r.phone },
  { header: 'Address', value: (r) => r.address },
  { header: 'Status', value: (r) => r.accountStatus },
  { header: 'Created', value: (r) => r.createdAt },
];

export const activityCsvColumns: CsvColumn<Activity>[] = [
  { header: 'ID', value: (a) => a.id },
  { header: 'User type', value: (a) => a.userType },
  { header: 'User', value: (a) => a.user.name },
  { header: 'Organization', value: (a) => a.user.organizationName },
  { header: 'Action', value: (a) => a.action },
  { header: 'IP location', value: (a) => a.ipLocation },
  { header: 'IP address', value: (a) => a.ipAddress },
  { header: 'Created', value: (a) => a.createdAt },
];

/** One rejected row of an import: its row number (the header is row 1), external id, reason, the line. */
export type ImportRejectRow = { row: number; externalId: string | null; reason: string; raw: string };

/** GET /admin/customers/imports/{id}/rejects. */
export const importRejectCsvColumns: CsvColumn<ImportRejectRow>[] = [
  { header: 'row', value: (r) => r.row },
  { header: 'externalId', value: (r) => r.externalId },
  { header: 'reason', value: (r) => r.reason },
  { header: 'row as sent', value: (r) => r.raw },
];

/** The review queue's export: a visit's columns, then its review (decision 075). */
export const visitReviewCsvColumns: CsvColumn<Visit>[] = [
  ...visitCsvColumns,
  { header: 'Review state', value: (v) => v.review.state },
  { header: 'Flags', value: (v) => v.review.flags.join('; ') },
  { header: 'Reason', value: (v) => v.review.reason ?? '' },
  { header: 'Reviewed by', value: (v) => v.review.reviewedBy?.name ?? '' },
  { header: 'Reviewed at', value: (v) => v.review.reviewedAt ?? '' },
];

/** Each list's CSV export (the list is the same path without `/export`) and the columns it writes. */
// biome-ignore lint/suspicious/noExplicitAny: a table of columns of different record types
export const CSV_EXPORT_COLUMNS: Record<string, CsvColumn<any>[]> = {
  'GET /admin/user/admin-users/export': staffCsvColumns,
  'GET /admin/admin-users/export': staffCsvColumns,
  'GET /admin/user/get-roles/export': roleCsvColumns,
  'GET /admin/user/activities/export': activityCsvColumns,
  'GET /admin/partners/export': partnerCsvColumns,
  'GET /admin/partners/extended-services/export': serviceCsvColumns,
  'GET /admin/partners/visits/export': partnerVisitCsvColumns,
  'GET /admin/partners/visits/reward-eligible-users/export': eligibleCsvColumns,
  'GET /admin/partners/visits/eligible-users-bypoints/export': pointsCsvColumns,
  'GET /admin/partners/rewards/export': rewardCsvColumns,
  'GET /admin/user/customers/export': customerCsvColumns,
  'GET /admin/visit-reviews/export': visitReviewCsvColumns,
};
