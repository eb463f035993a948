/** The query-cache key every automatic-enrolment answer sits under, by employer. */
export const AE_KEY = ['auto-enrolment'] as const;

const employerPath = (employerId: string) => `/api/employers/${encodeURIComponent(employerId)}`;

/** Where the API keeps each automatic-enrolment answer (decisions.md §6). */
export const AE_PATHS = {
  assessment: (employerId: string) => `${employerPath(employerId)}/auto-enrolment`,
  payrollImport: (employerId: string) => `${employerPath(employerId)}/payroll/import`,
  uploads: (employerId: string) => `${employerPath(employerId)}/payroll/imports`,
  upload: (employerId: string, uploadId: string) =>
    `${employerPath(employerId)}/payroll/imports/${encodeURIComponent(uploadId)}`,
  overview: '/api/auto-enrolment/overview',
};
