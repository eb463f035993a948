import {
  Accordion,
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { type JsonSchema, schemaText } from './schema-text';

interface Operation {
  summary?: string;
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

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const response = await fetch('/api/auth/signin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (response.ok) return onSignedIn();
    setProblem(
      response.status === 429
        ? 'Too many attempts. Wait a minute and try again.'
        : 'Invalid email or password',
    );
  };
  return (
    <form onSubmit={submit}>
      <Stack maw={360}>
        <Text>Sign in to read the API reference.</Text>
        {problem && <Alert color="red">{problem}</Alert>}
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Button type="submit">Sign in</Button>
      </Stack>
    </form>
  );
}

function OperationDetails({ operation }: { operation: Operation }) {
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const parameters = operation.parameters ?? [];
  return (
    <Stack gap="xs">
      {operation.summary && <Text>{operation.summary}</Text>}
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

/** The OpenAPI description of /openapi.json, readable by signed-in users. */
export function ApiReference() {
  const [state, setState] = useState<'loading' | 'signed-out' | OpenApi>('loading');
  const load = useCallback(async () => {
    const session = await (await fetch('/api/auth/session')).json();
    if (!session.user) return setState('signed-out');
    setState(await (await fetch('/openapi.json')).json());
  }, []);
  useEffect(() => {
    load();
  }, [load]);

  if (state === 'loading') return <Loader aria-label="Loading" />;
  if (state === 'signed-out') return <SignIn onSignedIn={load} />;
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
