/** An answer in the API's one error shape, with its status and code (an error may carry more, e.g. a new amount). */
import { expect } from 'vitest';
import type { Answer } from './helper';

export const expectError = (answer: Answer, status: number, code: string) => {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
};
