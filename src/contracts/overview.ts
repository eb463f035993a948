import { z } from 'zod';

/** Why a scheme is on someone's list of work (docs/decisions/0045-home-pages-by-role.md). */
export const SCHEME_NEEDS = ['no_members', 'no_funds', 'contributions_due'] as const;
/** Why a member is on an employer's list of work. */
export const MEMBER_NEEDS = ['no_email', 'missed_last_period'] as const;

const schemeAttention = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  employerId: z.string(),
  employerName: z.string(),
  memberCount: z.number().int(),
  /** The latest pay period with any contribution, `YYYY-MM`, or null. */
  lastPeriod: z.string().nullable(),
  needs: z.array(z.enum(SCHEME_NEEDS)),
});

const recentUpload = z.object({
  id: z.string(),
  schemeId: z.string(),
  schemeName: z.string(),
  kind: z.enum(['members', 'contributions']),
  status: z.string(),
  rowsWritten: z.number().int(),
  issueCount: z.number().int(),
  createdAt: z.string(),
});

const memberAttention = z.object({
  id: z.string(),
  name: z.string(),
  schemeId: z.string(),
  schemeName: z.string(),
  needs: z.array(z.enum(MEMBER_NEEDS)),
});

export const overviewView = z.object({
  /** The pay period now due, `YYYY-MM`: last month in Irish time. */
  duePeriod: z.string(),
  schemes: z.array(schemeAttention),
  recentUploads: z.array(recentUpload),
  membersNeedingAttention: z.array(memberAttention),
});
export type OverviewView = z.infer<typeof overviewView>;
