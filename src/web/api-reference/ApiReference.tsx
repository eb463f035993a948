import { Accordion, Alert, Badge, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type JsonSchema, schemaText } from './schema-text';

interface Operation {
  summary?: string;
  /** Who may call it, written by the server from the policy table. */
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: JsonSchema }> }
  >;
}
interface OpenApi {
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
}

const METHOD_COLOURS: Record<string, string> = {
  get: 'blue',
  post: 'green',
  put: 'orange',
  patch: 'orange',
  delete: 'red',
};

function OperationDetails({ operation }: { operation: Operation }) {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = operation.parameters ?? [];
  return (
    <Stack gap="xs">
      {operation.summary && <Text>{operation.summary}</Text>}
      {operation.description && (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {operation.description}
        </Text>
      )}
      {parameters.length > 0 && (
        <Text size="sm">
          Parameters:{' '}
          {parameters.map((parameter) => (
            <Code key={`${parameter.in}-${parameter.name}`} mr={4}>
              {parameter.in} {parameter.name}
              {parameter.required ? '' : '?'}: {schemaText(parameter.schema)}
            </Code>
          ))}
        </Text>
      )}
      {body && (
        <>
          <Text size="sm">Request body</Text>
          <Code block>{schemaText(body)}</Code>
        </>
      )}
      {Object.entries(operation.responses ?? {}).map(([status, response]) => (
        <Stack key={status} gap={2}>
          <Text size="sm">
            <Badge variant="light" color={status.startsWith('2') ? 'green' : 'gray'} mr={6}>
              {status}
            </Badge>
            {response.description}
          </Text>
          {response.content?.['application/json']?.schema && (
            <Code block>{schemaText(response.content['application/json'].schema)}</Code>
          )}
        </Stack>
      ))}
    </Stack>
  );
}

/** The OpenAPI description of /openapi.json, for signed-in users (the layout sees to that). */
export function ApiReference() {
  const description = useQuery({
    queryKey: ['openapi'],
    queryFn: async () => (await fetch('/openapi.json')).json() as Promise<OpenApi>,
  });
  if (description.isPending) return <Loader aria-label="Loading" />;
  if (description.isError)
    return <Alert color="red">The API description could not be loaded.</Alert>;
  const state = description.data;
  const operations = Object.entries(state.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  return (
    <Stack>
      <Title order={2}>
        {state.info.title}{' '}
        <Text span c="dimmed">
          {state.info.version}
        </Text>
      </Title>
      <Text size="sm">
        Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).
      </Text>
      <Accordion multiple variant="separated">
        {operations.map(({ path, method, operation }) => (
          <Accordion.Item key={`${method} ${path}`} value={`${method} ${path}`}>
            <Accordion.Control>
              <Group gap="sm">
                <Badge color={METHOD_COLOURS[method] ?? 'gray'} w={70}>
                  {method}
                </Badge>
                <Code>{path}</Code>
                <Text size="sm" c="dimmed">
                  {operation.tags?.join(', ')}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <OperationDetails operation={operation} />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
