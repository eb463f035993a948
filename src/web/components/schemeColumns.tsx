import { Anchor, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { Scheme } from '../api/types';
import type { Column } from './CursorTable';
import { DateTime } from './DateTime';
import { SCHEME_TYPE_NAMES } from './validation';

/** A scheme's name, leading to its own page, and its type: the first columns of every list of schemes. */
export function schemeNameColumns<T extends Pick<Scheme, 'id' | 'name' | 'type'>>(): Column<T>[] {
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
  ];
}

/**
 * The columns of a plain list of schemes: the name and type, the employer where the list spans
 * several (`employerName`), and when the scheme was added.
 */
export function schemeColumns({
  employerName,
}: {
  employerName?: (scheme: Scheme) => string;
} = {}): Column<Scheme>[] {
  return [
    ...schemeNameColumns<Scheme>(),
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
