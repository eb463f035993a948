import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import type { Member } from '../../api/types';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { memberKey } from './member-page-cache';

interface ContactValues {
  email: string;
  address: string;
}

/**
 * The member keeps their own e-mail and postal address up to date; the
 * service checks them and records that they changed, never what they say.
 */
export function ContactDetailsButton({ member }: { member: Member }) {
  const [opened, dialog] = useDisclosure(false);
  return (
    <>
      <Button variant="default" onClick={dialog.open}>
        Update my contact details
      </Button>
      <Modal
        opened={opened}
        onClose={dialog.close}
        title="Update my contact details"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {opened && <ContactForm member={member} onClose={dialog.close} />}
      </Modal>
    </>
  );
}

function ContactForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const client = useQueryClient();
  const form = useForm<ContactValues>({
    initialValues: { email: member.email ?? '', address: member.address ?? '' },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.members.updateContact, {
      params: { id: member.id },
      body: {
        email: values.email.trim() === '' ? null : values.email,
        address: values.address.trim() === '' ? null : values.address,
      },
    });
    await client.invalidateQueries({ queryKey: memberKey(member.id) });
    notifySuccess('Your contact details are saved.');
    onClose();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput
          label="E-mail address"
          description="Where your scheme writes to you. It does not change how you sign in."
          type="email"
          autoComplete="email"
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Textarea
          label="Postal address"
          autoComplete="street-address"
          autosize
          minRows={3}
          {...form.getInputProps('address')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
