import { useId, type ComponentProps, type ReactNode } from 'react';

interface FieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  hint?: string;
  /** Shown under the field and announced; marks the field invalid. */
  error?: string | null;
  /** A button beside the input (Apply, Add). */
  action?: ReactNode;
}

/** A labelled text input with its hint and error tied to it for screen readers. */
export function Field({ label, hint, error, action, ...input }: FieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <div className="input-row">
        <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} {...input} />
        {action}
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
