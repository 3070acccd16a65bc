import { describe, expect, it } from 'vitest';
import { FALLBACK_FAILURE_MESSAGE, failureMessage } from './failure-message';
import { MESSAGE_TEXTS } from './messages';

describe('failure message', () => {
  it('is the message of an Error', () => expect(failureMessage(new Error('Email or Password Invalid'))).toBe('Email or Password Invalid'));
  it('is the message of a plain object', () => expect(failureMessage({ message: 'Order not pending' })).toBe('Order not pending'));
  it('is the message of the API error shape', () => {
    expect(failureMessage({ error: { code: 'email_taken', message: 'A user already exists with that email address' } })).toBe(
      'A user already exists with that email address',
    );
  });
  it('falls back to a message key when there is no message', () => {
    expect(failureMessage(undefined)).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage('boom')).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage(new Error(''))).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage(new Error('   '))).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage({ message: 404 })).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage(null)).toBe(FALLBACK_FAILURE_MESSAGE);
    expect(failureMessage({ error: { code: 'x' } })).toBe(FALLBACK_FAILURE_MESSAGE);
  });
  it('falls back to a key that has a text', () => expect(MESSAGE_TEXTS[FALLBACK_FAILURE_MESSAGE]).toBeTruthy());
});
