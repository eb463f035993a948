import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PRODUCT_NAME } from '../../../contracts/product';

/**
 * The frame of the signed-out pages: one narrow card in the middle of the page, under the
 * product's name as the e-mails give it, so a person who followed a link knows where they are.
 */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w={420} maw="100%">
        <Stack gap="md">
          <Stack gap={4}>
            <Text fw={700} c="blue.8">
              {PRODUCT_NAME}
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
