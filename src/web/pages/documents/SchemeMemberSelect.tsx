import { type ComboboxItem, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import { formatDate } from '../../format';

/** How many of the scheme's members a search offers. */
const MEMBERS_OFFERED = 20;

/**
 * Picks the member of this scheme a document is about (docs/decisions/0090-member-documents.md),
 * searching the scheme's members by name (`GET /api/schemes/:id/members?q=`).
 */
export function SchemeMemberSelect({
  schemeId,
  required,
  value,
  onChange,
  error,
}: {
  schemeId: string;
  required: boolean;
  value?: string;
  onChange: (memberId: string) => void;
  error?: React.ReactNode;
}) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<ComboboxItem | null>(null);
  // Once a member is chosen the box shows their label; that is not a new search.
  const nameSearch = chosen && debouncedSearch === chosen.label ? '' : debouncedSearch.trim();

  const members = useQuery({
    queryKey: ['members', 'document-picker', schemeId, nameSearch],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const page = await api(apiRoutes.members.listOfScheme, {
        params: { id: schemeId },
        query: { q: nameSearch.slice(0, 100), limit: MEMBERS_OFFERED },
      });
      return page.items.map((member) => ({
        value: member.id,
        label: `${member.lastName}, ${member.firstName} · born ${formatDate(member.dateOfBirth)}`,
      }));
    },
  });

  const options = members.data ?? [];
  const data =
    chosen && !options.some((option) => option.value === chosen.value)
      ? [chosen, ...options]
      : options;

  return (
    <Select
      label="Member"
      description={
        required
          ? 'The member this document is about: only they, of the scheme’s members, will see it'
          : 'Optional: a member this document is about, the only member who will see it'
      }
      required={required}
      searchable
      clearable
      clearButtonProps={{ 'aria-label': 'Clear the member' }}
      data={data}
      value={value ? value : null}
      onChange={(memberId, option) => {
        setChosen(memberId === null ? null : option);
        onChange(memberId ?? '');
      }}
      searchValue={search}
      onSearchChange={setSearch}
      // The API has already searched by name; the labels need no second filter here.
      filter={({ options: all }) => all}
      nothingFoundMessage={
        members.isFetching ? 'Searching…' : 'No member of this scheme has that name'
      }
      error={error}
    />
  );
}
