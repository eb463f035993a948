import { formatDateTime } from '../format';

/** A moment in Irish format, kept on one line in narrow table columns. */
export function DateTime({ value }: { value: string }) {
  return (
    <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value)}
    </time>
  );
}
