import { useState } from 'react';
import type { Channel } from '@contracts/chat.contract';
import { AsyncButton } from '@/components/async-button';
import { FormActions, ModalForm, TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { useForm } from '@/lib/form-state';
import { allChannelsQuery, changeChannel, createChannel } from '@/features/chat/chat.api';
import { useRead } from '@/lib/reads';

/** "New channel" in a modal; a taken name (409) is said under the name. */
function CreateChannelForm({ onDone, onCancel }: { onDone: (id: number) => void; onCancel: () => void }) {
  const toast = useToast();
  const [runnersMayJoin, setRunnersMayJoin] = useState(false);
  const form = useForm({
    schema: createChannel.endpoint.body,
    initial: { name: '', topic: '' },
    toInput: (values) => ({ ...values, runnersMayJoin }),
    send: async (body) => {
      const { id } = await createChannel({ body });
      toast.show({ tone: 'success', message: `#${body.name} is open.` });
      onDone(id);
    },
    conflictField: 'name',
  });
  return (
    <ModalForm form={form}>
      <TextField label="Name" name="name" autoComplete="off" {...form.field('name')} data-autofocus />
      <TextField label="Topic (optional)" name="topic" autoComplete="off" hint="Shown under the name: what the channel is for." {...form.field('topic')} />
      <label className="field-inline chat-check">
        <input type="checkbox" name="runnersMayJoin" checked={runnersMayJoin} onChange={(event) => setRunnersMayJoin(event.target.checked)} />
        Runners may read and write here
      </label>
      <FormActions pending={form.pending} submitLabel="Open channel" pendingLabel="Opening…" onCancel={onCancel} />
    </ModalForm>
  );
}

/** Every channel, archived ones too, each with Archive or Unarchive. */
function ManageChannels() {
  const { data, error, isValidating, mutate } = useRead(allChannelsQuery);
  const toast = useToast();
  const toggle = async (channel: Channel) => {
    const archived = !channel.archivedAt;
    try {
      await changeChannel({ params: { id: channel.id }, body: { archived } });
      toast.show({ tone: 'success', message: archived ? `#${channel.name} is archived.` : `#${channel.name} is back.` });
    } catch (failure) {
      toast.show({ tone: 'error', title: `Could not change #${channel.name}`, message: errorMessage(failure) });
    }
  };
  if (error) {
    return (
      <LoadError onRetry={() => void mutate()} retrying={isValidating}>
        Could not read the channels: {errorMessage(error)}
      </LoadError>
    );
  }
  if (!data) {
    return (
      <p className="inline-pending">
        <span className="spinner" aria-hidden="true" /> Loading channels…
      </p>
    );
  }
  return (
    <ul className="chat-manage" aria-label="All channels">
      {data.channels.map((channel) => (
        <li key={channel.id} className="chat-manage-row">
          <span className="chat-manage-main">
            <strong>#{channel.name}</strong>
            {channel.archivedAt ? <span className="badge badge-muted">Archived</span> : null}
            {channel.runnersMayJoin ? <span className="badge badge-ok">Runners</span> : null}
            {channel.topic ? <span className="muted small chat-manage-topic">{channel.topic}</span> : null}
          </span>
          <AsyncButton run={() => toggle(channel)} pendingLabel={channel.archivedAt ? 'Unarchiving…' : 'Archiving…'} aria-label={`${channel.archivedAt ? 'Unarchive' : 'Archive'} ${channel.name}`}>
            {channel.archivedAt ? 'Unarchive' : 'Archive'}
          </AsyncButton>
        </li>
      ))}
    </ul>
  );
}

/** The admin's buttons of the chat pages: open a channel, manage (archive, unarchive) them. */
export function ChannelAdminActions({ onCreated }: { onCreated?: (id: number) => void }) {
  const modal = useModal();
  const openCreate = () =>
    modal.open({
      title: 'New channel',
      description: 'Staff see every channel; runners only those open to them.',
      content: (close) => (
        <CreateChannelForm
          onCancel={close}
          onDone={(id) => {
            close();
            onCreated?.(id);
          }}
        />
      ),
    });
  const openManage = () =>
    modal.open({
      title: 'Manage channels',
      description: 'An archived channel leaves everyone’s list; its messages are kept, and it can come back.',
      content: <ManageChannels />,
    });
  return (
    <>
      <button type="button" className="btn btn-small" onClick={openManage}>
        Manage channels
      </button>
      <button type="button" className="btn btn-small btn-primary" onClick={openCreate}>
        <Icon name="plus" size={16} /> New channel
      </button>
    </>
  );
}
