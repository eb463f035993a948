import { VisuallyHidden } from '@mantine/core';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { closingStop, FIELD_ERROR_PREFIX } from './field-error';

/**
 * The element every input's error is shown in (set for Mantine's InputError in main.tsx's theme):
 * the message as it is, introduced to screen readers as an error and closed with a full stop they
 * read and nobody sees (field-error.ts).
 */
export const FieldErrorSentence = forwardRef<HTMLParagraphElement, ComponentPropsWithoutRef<'p'>>(
  function FieldErrorSentence({ children, ...props }, ref) {
    const stop = typeof children === 'string' ? closingStop(children) : '';
    return (
      <p ref={ref} {...props}>
        <VisuallyHidden component="span">{FIELD_ERROR_PREFIX}</VisuallyHidden>
        <span>{children}</span>
        {stop && <VisuallyHidden component="span">{stop}</VisuallyHidden>}
      </p>
    );
  },
);
