import { NumberInput, Table, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { Fund } from '../../api/types';

/** Whole percent per fund id, as a form holds it: empty or 0 leaves the fund out. */
export type FundPercents = Record<string, number | string>;

const percentOf = (value: number | string | undefined): number =>
  typeof value === 'number' && Number.isInteger(value) ? value : 0;

/** The funds given a share, in the order of `funds`, as the API takes them (`{ fundId, percent }`). */
export const percentLinesOf = (funds: Fund[], percents: FundPercents) =>
  funds
    .map((fund) => ({ fundId: fund.id, percent: percentOf(percents[fund.id]) }))
    .filter((line) => line.percent > 0);

/** The total of the shares entered. */
export const totalOf = (funds: Fund[], percents: FundPercents): number =>
  funds.reduce((sum, fund) => sum + percentOf(percents[fund.id]), 0);

/**
 * A whole percentage for each open fund of the scheme, their total beside them and what is left to
 * reach exactly 100: the fund choice and the switch are both shares of this shape
 * (src/contracts/dc-money-rules.ts, `percentLines`). The form holds the shares at `percents`.
 */
export function FundPercentsTable<Values extends { percents: FundPercents }>({
  form,
  funds,
  caption,
  testId,
}: {
  form: UseFormReturnType<Values>;
  funds: Fund[];
  caption: string;
  testId: string;
}) {
  const total = totalOf(funds, form.values.percents);
  return (
    <>
      <Table captionSide="top">
        <Table.Caption style={{ textAlign: 'left' }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fund</Table.Th>
            <Table.Th w={140}>Percent</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {funds.map((fund) => (
            <Table.Tr key={fund.id}>
              <Table.Td>{fund.name}</Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label={`Percent in ${fund.name}`}
                  min={0}
                  max={100}
                  step={5}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="strict"
                  suffix="%"
                  {...form.getInputProps(`percents.${fund.id}`)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td>
              <Text
                fw={700}
                c={total === 100 ? undefined : 'red.9'}
                aria-live="polite"
                data-testid={testId}
              >
                {total}%
              </Text>
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
      <Text size="sm" c={total === 100 ? 'dimmed' : 'red.9'}>
        {total === 100
          ? 'The total is 100%.'
          : total < 100
            ? `${100 - total}% still to choose: the total must be exactly 100%.`
            : `${total - 100}% too much: the total must be exactly 100%.`}
      </Text>
    </>
  );
}
