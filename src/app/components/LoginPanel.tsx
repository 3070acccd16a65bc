import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp, useMessage } from '../hooks';
import { Field } from './Field';
import { Alert } from './Feedback';

/**
 * The login panel: e-mail and password, sent to the auth actor, or "E-mail me a sign-in link" for the typed
 * e-mail, landing back on this page; without a title it sits in a disclosure.
 */
export function LoginPanel({ title }: { title?: string }) {
  const { t } = useTranslation();
  const message = useMessage();
  const router = useRouter();
  const { auth } = useApp().session;
  const loggingIn = useSelector(auth, (snapshot) => snapshot.matches('loggingIn'));
  const requestingLink = useSelector(auth, (snapshot) => snapshot.matches('requestingLink'));
  const linkSent = useSelector(auth, (snapshot) => snapshot.matches('linkSent'));
  const error = useSelector(auth, (snapshot) => snapshot.context.loginError ?? snapshot.context.linkError);
  // The server answers a wrong password and an address not yet confirmed alike (telling them apart would tell
  // who has an account), so every refused password says how a new account gets in.
  const passwordRefused = useSelector(auth, (snapshot) => snapshot.context.loginError === 'api.invalid_credentials');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const titleId = useId();
  const confirmFirstId = useId();

  // A shown error is about the fields as they were: it goes as soon as one changes.
  const edit = (set: (value: string) => void, value: string) => {
    set(value);
    if (error) auth.send({ type: 'auth.edit' });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    auth.send({ type: 'auth.login', email, password });
  };
  const requestLink = () => {
    // The history's location carries the /checkout basepath: the server accepts only pages under /checkout/.
    const { pathname, search } = router.history.location;
    auth.send({ type: 'auth.requestLink', email, redirect: `${pathname}${search}` });
  };

  return (
    <form className="login" aria-labelledby={title ? titleId : undefined} aria-label={title ? undefined : t('login.submit')} onSubmit={submit}>
      {title && <h2 id={titleId}>{title}</h2>}
      <Field label={t('login.email')} type="email" name="email" autoComplete="username" required value={email} onChange={(event) => edit(setEmail, event.target.value)} />
      <Field label={t('login.password')} type="password" name="password" autoComplete="current-password" required value={password} onChange={(event) => edit(setPassword, event.target.value)} />
      {error && <Alert>{message(error)}</Alert>}
      {passwordRefused && <p className="hint" id={confirmFirstId}>{t('login.confirmFirst')}</p>}
      <button type="submit" className="button" aria-disabled={loggingIn || undefined}>
        {loggingIn ? t('login.submitting') : t('login.submit')}
      </button>
      <p className="hint">{t('login.linkHint')}</p>
      <button type="button" className="button secondary" aria-disabled={requestingLink || undefined} aria-describedby={passwordRefused ? confirmFirstId : undefined} onClick={requestLink}>
        {requestingLink ? t('login.requestingLink') : t('login.requestLink')}
      </button>
      <p className="hint" role="status">
        {linkSent ? t('login.linkSent') : ''}
      </p>
    </form>
  );
}
