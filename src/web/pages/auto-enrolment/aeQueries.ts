/** The query-cache key every automatic-enrolment answer sits under, by employer. */
export const AE_KEY = ['auto-enrolment'] as const;
