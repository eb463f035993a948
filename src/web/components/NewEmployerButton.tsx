import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import { NameFormModal } from './NameFormModal';

/**
 * "New employer" and its dialog (BrokerAdmin). Once created, the employer's own page opens:
 * its schemes and accounts are usually the next thing to add.
 */
export function NewEmployerButton() {
  const client = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>New employer</Button>
      <NameFormModal
        opened={opened}
        onClose={() => setOpened(false)}
        title="New employer"
        label="Employer name"
        submitLabel="Create employer"
        save={async (values) => {
          const employer = await api(apiRoutes.employers.create, { body: values });
          await client.invalidateQueries({ queryKey: ['employers'] });
          await client.invalidateQueries({ queryKey: ['dashboard'] });
          return employer;
        }}
        savedMessage={(values) => `Employer “${values.name.trim()}” created.`}
        onSaved={(employer) => navigate({ to: `/employers/${employer.id}` })}
      />
    </>
  );
}
