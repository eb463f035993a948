/**
 * What a member is picked for: the one record a Member account is linked to, or the member a
 * data-subject request is about (docs/decisions/0137-data-subject-requests.md). The picker's
 * help says which, for the person choosing.
 */
export type MemberPickerPurpose = 'account' | 'request';

const SEARCH_HINT = 'Type part of a name to search.';

export const MEMBER_PICKER_DESCRIPTIONS: Record<MemberPickerPurpose, string> = {
  account: `The one member record this new account may see. ${SEARCH_HINT}`,
  request: `The member who made the request, among the employer’s members. ${SEARCH_HINT}`,
};
