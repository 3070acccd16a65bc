import { readFileSync } from 'node:fs';

/** What a server log must never hold: e-mail addresses, payment-link ids, session cookies and the suite's passwords. */
const PERSONAL_DATA: { what: string; pattern: RegExp }[] = [
  { what: 'an e-mail address', pattern: /[\w.+-]+(@|%40)[\w-]+\.[\w.-]+/ },
  { what: 'a payment-link id', pattern: /pay_[A-Za-z0-9_-]{16,}/ },
  { what: 'a session cookie', pattern: /tvc_session/ },
  { what: 'a password of the suite', pattern: /demo-password-1|reseller-password-1|a-long-password-\d|not-the-password/ },
];

/** Reads a server log and lists the lines that carry personal data; the count says how much was searched. */
export function personalDataInLog(logPath: string): { lines: number; findings: string[] } {
  const lines = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
  const findings = lines.flatMap((line, index) =>
    PERSONAL_DATA.filter(({ pattern }) => pattern.test(line)).map(({ what }) => `line ${index + 1} carries ${what}: ${line.slice(0, 300)}`));
  return { lines: lines.length, findings };
}
