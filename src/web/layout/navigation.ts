import { type Access, allows } from '../auth/can';
import type { Session } from '../auth/session';
import { PAGES } from './pages';

export interface NavItem {
  label: string;
  to: string;
}

interface NavEntry extends Access {
  label: string;
  to: (session: Session) => string;
}

/**
 * What each person works on, in this order: every page the policy table lets them open
 * (layout/pages.ts), seen from their own side. An employer's staff and a member get their own
 * record's page. Which reaches a page is for is said once, in PAGES: the platform is offered none
 * of a firm's records (docs/decisions/0153-firm-records-not-the-platforms-pages.md).
 */
const ENTRIES: readonly NavEntry[] = [
  { label: 'Dashboard', to: () => '/dashboard', ...PAGES.dashboard },
  { label: 'Home', to: () => '/home', ...PAGES.home },
  { label: 'Brokers', to: () => '/brokers', ...PAGES.brokers },
  { label: 'Employers', to: () => '/employers', ...PAGES.employers },
  {
    label: 'My employer',
    to: ({ user }) => `/employers/${user.employerId}`,
    ...PAGES.employer,
    scopes: ['employer'],
  },
  {
    label: 'Automatic enrolment',
    to: ({ user }) => `/employers/${user.employerId}/auto-enrolment`,
    ...PAGES.autoEnrolment,
    scopes: ['employer'],
  },
  {
    label: 'My pension',
    to: ({ account }) => `/members/${account.memberId}`,
    ...PAGES.member,
    scopes: ['member'],
  },
  { label: 'Schemes', to: () => '/schemes', ...PAGES.schemes },
  { label: 'Governance', to: () => '/governance', ...PAGES.governance },
  { label: 'Compliance calendar', to: () => '/compliance-calendar', ...PAGES.complianceCalendar },
  { label: 'Data requests', to: () => '/data-requests', ...PAGES.dataRequests },
  { label: 'Data breaches', to: () => '/data-breaches', ...PAGES.dataBreaches },
  { label: 'ICT incidents', to: () => '/ict-incidents', ...PAGES.ictIncidents },
  { label: 'ICT providers', to: () => '/ict-providers', ...PAGES.ictProviders },
  { label: 'Ask about regulations', to: () => '/ask', ...PAGES.ask },
  { label: 'Users', to: () => '/users', ...PAGES.users },
  { label: 'Audit log', to: () => '/audit', ...PAGES.audit },
  { label: 'AI settings', to: () => '/ai-settings', ...PAGES.aiSettings },
  { label: 'API reference', to: () => '/api-reference', ...PAGES.apiReference },
  { label: 'My account', to: () => '/account', ...PAGES.account },
];

export function navigationFor(session: Session): NavItem[] {
  return [
    ...ENTRIES.filter((entry) => allows(session, entry)).map((entry) => ({
      label: entry.label,
      to: entry.to(session),
    })),
  ];
}

/** Where a person lands after signing in: their first page (a Member with no record, their account). */
export function homeOf(session: Session): string {
  return navigationFor(session)[0]?.to ?? '/account';
}

/**
 * Which item a page belongs to: the one whose address is the page's or the longest that leads
 * to it, so that an employer's automatic-enrolment page marks that item and not "My employer"
 * too. -1 when the page is in none.
 */
export function currentItem(items: readonly NavItem[], path: string): number {
  let found = -1;
  items.forEach((item, index) => {
    const leads = path === item.to || path.startsWith(`${item.to}/`);
    if (leads && (found === -1 || item.to.length > (items[found]?.to.length ?? 0))) found = index;
  });
  return found;
}
