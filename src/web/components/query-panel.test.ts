import { MantineProvider } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { QueryPanel } from './QueryPanel';

type Page = { items: string[] };

/** The four states a query reaches, as far as the panel reads them. */
function pending(): UseQueryResult<Page> {
  return { isPending: true, isError: false, error: null, data: undefined } as UseQueryResult<Page>;
}
function failed(error: unknown): UseQueryResult<Page> {
  return { isPending: false, isError: true, error, data: undefined } as UseQueryResult<Page>;
}
function loaded<T>(data: T): UseQueryResult<T> {
  return { isPending: false, isError: false, error: null, data } as UseQueryResult<T>;
}

/** What the panel shows, inside the provider the app gives it. */
function shown<T>(props: Parameters<typeof QueryPanel<T, Error>>[0]): string {
  return renderToString(
    createElement(MantineProvider, null, createElement(QueryPanel<T, Error>, props)),
  );
}

const list = (data: Page) => createElement('ul', null, data.items.join(', '));

describe('a panel that loads one query', () => {
  it('names what it is loading while the query is pending', () => {
    const html = shown({ query: pending(), loading: 'Loading the months', children: list });
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-label="Loading the months"');
    expect(html).not.toContain('<ul>');
  });

  it('says why the query failed in a red alert', () => {
    const notFound = shown({
      query: failed(new ApiError(404, 'Not Found')),
      loading: 'Loading the months',
      children: list,
    });
    expect(notFound).toContain('role="alert"');
    expect(notFound).toContain('Not found. It may have been removed, or it is not yours to see.');
    const broken = shown({
      query: failed(new TypeError('Failed to fetch')),
      loading: 'Loading the months',
      children: list,
    });
    expect(broken).toContain('Something went wrong. Please try again.');
    expect(broken).not.toContain('<ul>');
  });

  it('says the empty sentence in place of the content when the data holds nothing', () => {
    const html = shown({
      query: loaded<Page>({ items: [] }),
      loading: 'Loading the months',
      isEmpty: (data: Page) => data.items.length === 0,
      empty: 'No month is recorded.',
      children: list,
    });
    expect(html).toContain('No month is recorded.');
    expect(html).not.toContain('<ul>');
  });

  it('makes the empty sentence from the data, and reads the first page of an infinite query', () => {
    const html = shown({
      query: loaded({ pages: [{ items: [] }], countedFrom: '2025-01' }),
      loading: 'Loading the months',
      isEmpty: (data: { pages: Page[] }) => data.pages[0]?.items.length === 0,
      empty: (data: { countedFrom: string }) => `Nothing since ${data.countedFrom}.`,
      children: () => createElement('ul'),
    });
    expect(html).toContain('Nothing since 2025-01.');
  });

  it('shows what the render function makes of the data otherwise', () => {
    const html = shown({
      query: loaded<Page>({ items: ['May', 'June'] }),
      loading: 'Loading the months',
      isEmpty: (data: Page) => data.items.length === 0,
      empty: 'No month is recorded.',
      children: list,
    });
    expect(html).toContain('<ul>May, June</ul>');
    expect(html).not.toContain('No month is recorded.');
  });
});
