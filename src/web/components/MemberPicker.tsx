import { type ComboboxItem, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import { formatDate } from '../format';
import { fetchAllPages } from './allPages';
import { MEMBER_PICKER_DESCRIPTIONS, type MemberPickerPurpose } from './member-picker';

/** How many members each of the employer's schemes offers per search. */
const MEMBERS_PER_SCHEME = 20;

/**
 * Picks one member record of an employer: for a Member account, or as the member a data-subject
 * request is about (`purpose`, which words the help for the person choosing). The API has no list of an
 * employer's members, so this searches the members of each of its schemes by name
 * (`GET /api/schemes/:id/members?q=`) and offers the first few of each.
 */
export function MemberPicker({
  purpose,
  employerId,
  value,
  onChange,
  error,
}: {
  purpose: MemberPickerPurpose;
  employerId: string;
  value: string | null;
  onChange: (memberId: string | null) => void;
  error?: React.ReactNode;
}) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<ComboboxItem | null>(null);
  // Once a member is chosen the box shows their label; that is not a new search.
  const nameSearch = chosen && debouncedSearch === chosen.label ? '' : debouncedSearch.trim();

  const schemes = useQuery({
    queryKey: ['schemes', 'all', { employerId }],
    queryFn: () => fetchAllPages(apiRoutes.schemes.list, { query: { employerId } }),
  });
  const members = useQuery({
    queryKey: ['members', 'picker', employerId, nameSearch],
    enabled: schemes.isSuccess,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const lists = await Promise.all(
        (schemes.data?.items ?? []).map(async (scheme) => {
          const page = await api(apiRoutes.members.listOfScheme, {
            params: { id: scheme.id },
            query: { q: nameSearch.slice(0, 100), limit: MEMBERS_PER_SCHEME },
          });
          return page.items.map((member) => ({
            value: member.id,
            label: `${member.lastName}, ${member.firstName} · born ${formatDate(
              member.dateOfBirth,
            )} · ${scheme.name}`,
          }));
        }),
      );
      return lists.flat();
    },
  });

  const options = members.data ?? [];
  const data =
    chosen && !options.some((option) => option.value === chosen.value)
      ? [chosen, ...options]
      : options;
  const noSchemes = schemes.isSuccess && schemes.data.items.length === 0;

  return (
    <Select
      label="Member record"
      description={MEMBER_PICKER_DESCRIPTIONS[purpose]}
      required
      searchable
      clearable
      clearButtonProps={{ 'aria-label': 'Clear the member record' }}
      data={data}
      value={value}
      onChange={(memberId, option) => {
        setChosen(memberId === null ? null : option);
        onChange(memberId);
      }}
      searchValue={search}
      onSearchChange={setSearch}
      // The API has already searched by name; the labels need no second filter here.
      filter={({ options: all }) => all}
      nothingFoundMessage={
        noSchemes
          ? 'This employer has no schemes, so no members yet'
          : members.isFetching || schemes.isPending
            ? 'Searching…'
            : 'No member of this employer has that name'
      }
      error={error}
    />
  );
}
