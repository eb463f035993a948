import { Alert, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../api/client';
import { Loading } from './Loading';

/** The sentence shown in place of the content when the data holds nothing, and when that is. */
type Empty<T> =
  | { isEmpty?: undefined; empty?: undefined }
  | {
      /** Whether the loaded data holds nothing to show. */
      isEmpty: (data: T) => boolean;
      /** The sentence shown then, or a function of the data that gives it. */
      empty: ReactNode | ((data: T) => ReactNode);
    };

/**
 * One layout for a panel's four states, so every panel that loads one query reads alike: a
 * spinner named by `loading` while it loads, the failure in a red alert, the `empty` sentence
 * when `isEmpty` says the data holds nothing, else what `children` makes of the data. A page's
 * own record fails with LoadError instead, which this does not replace.
 */
export function QueryPanel<T, E>({
  query,
  loading,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T, E>;
  loading: string;
  children: (data: T) => ReactNode;
} & Empty<T>) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(query.error)}
      </Alert>
    );
  }
  if (isEmpty?.(query.data)) {
    return <Text>{typeof empty === 'function' ? empty(query.data) : empty}</Text>;
  }
  return children(query.data);
}
