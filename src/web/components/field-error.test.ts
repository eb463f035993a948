import { describe, expect, it } from 'vitest';
import { closingStop, errorAsRead } from './field-error';

describe('a field’s error, as it reads after the field’s label', () => {
  it('is introduced as an error and ends as a sentence, so label and message do not run together', () => {
    expect(`Password ${errorAsRead('Use at least 12 characters')}`).toBe(
      'Password Error: Use at least 12 characters.',
    );
  });

  it('gets a full stop only where it has no closing punctuation of its own', () => {
    expect(closingStop('Use at least 12 characters')).toBe('.');
    expect(closingStop('Use at least 12 characters.')).toBe('');
    expect(closingStop('Is this the date you meant? ')).toBe('');
    expect(closingStop('')).toBe('');
    expect(errorAsRead('  Enter a name ')).toBe('Error: Enter a name.');
  });
});
