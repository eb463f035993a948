import { Button, Group, Text } from '@mantine/core';
import { useId } from 'react';

/**
 * The button that sends a previewed file, disabled when the preview already knows the service
 * will refuse the file whole (`refusalOfPreview`), with the reason beside it rather than an
 * enabled button that promises all is well.
 */
export function StartButton({
  label,
  refusal,
  onStart,
}: {
  label: string;
  refusal: string | null;
  onStart: () => void;
}) {
  const reasonId = useId();
  return (
    <Group gap="sm" wrap="nowrap" justify="flex-end">
      {refusal && (
        <Text id={reasonId} size="sm" c="red.8" fw={500} maw={480} ta="right">
          {refusal}
        </Text>
      )}
      <Button
        onClick={onStart}
        disabled={refusal !== null}
        aria-describedby={refusal ? reasonId : undefined}
      >
        {label}
      </Button>
    </Group>
  );
}
