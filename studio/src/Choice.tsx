/** A labelled select of string values, each option with its words. */
export function Choice({ label, value, options, onChange }: { label: string; value: string; options: readonly { value: string; words: string }[]; onChange: (value: string) => void }) {
  return (
    <label>
      {label}{' '}
      <select value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.words}
          </option>
        ))}
      </select>
    </label>
  );
}
