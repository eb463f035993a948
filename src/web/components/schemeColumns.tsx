import { Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Scheme } from '../api/types';
import type { Column } from './CursorTable';
import { DateTime } from './DateTime';
import { SCHEME_TYPE_NAMES } from './validation';

/**
 * The columns of every list of schemes: the name leads to the scheme's own page;
 * `employerName` adds the employer, where the list spans several.
 */
export function schemeColumns({
  employerName,
}: {
  employerName?: (scheme: Scheme) => string;
} = {}): Column<Scheme>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      render: (scheme) => (
        <Anchor component={Link} to={`/schemes/${scheme.id}`}>
          {scheme.name}
        </Anchor>
      ),
      sortValue: (scheme) => scheme.name,
    },
    {
      key: 'type',
      header: 'Type',
      render: (scheme) => (
        <Text span size="sm">
          {scheme.type}
          <Text span size="sm" c="dimmed">
            {' '}
            · {SCHEME_TYPE_NAMES[scheme.type]}
          </Text>
        </Text>
      ),
      sortValue: (scheme) => scheme.type,
    },
    ...(employerName
      ? [{ key: 'employer', header: 'Employer', render: employerName, sortValue: employerName }]
      : []),
    {
      key: 'createdAt',
      header: 'Created',
      render: (scheme) => <DateTime value={scheme.createdAt} />,
      sortValue: (scheme) => scheme.createdAt,
    },
  ];
}
