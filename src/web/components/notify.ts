import { notifications } from '@mantine/notifications';

/**
 * Says that something the person asked for is done. The close button gets a name: Mantine's has
 * none of its own, and a nameless button is a critical accessibility failure.
 */
export function notifySuccess(message: string): void {
  notifications.show({
    color: 'green',
    message,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Says that something the person asked for could not be done, and why. */
export function notifyProblem(message: string): void {
  notifications.show({
    color: 'red',
    message,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Says how something the person asked for came out when nothing was done and nothing is wrong. */
export function notifyInfo(message: string): void {
  notifications.show({
    color: 'blue',
    message,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}
