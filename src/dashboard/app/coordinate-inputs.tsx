/** The two inputs, latitude first as people write it; `index` is the place of each in `[lon, lat]`. */
const AXES = [
  { name: 'latitude', label: 'Latitude', index: 1 },
  { name: 'longitude', label: 'Longitude', index: 0 },
] as const;

interface Props {
  /** The inputs' ids are `<idPrefix>-latitude` and `<idPrefix>-longitude`. */
  idPrefix: string;
  /** What they show, `[lon, lat]`: numbers, or the text typed so far; null shows them empty. */
  value: readonly [number | string, number | string] | null;
  /** A coordinate typed into one of them: `index` 0 is the longitude, 1 the latitude. */
  onEdit: (index: 0 | 1, text: string) => void;
  /** `change` edits once the person leaves the input rather than on every keystroke. */
  editOn?: 'input' | 'change';
  required?: boolean;
}

/** Latitude and longitude typed in degrees, side by side, each with its label. */
export function CoordinateInputs({ idPrefix, value, onEdit, editOn = 'input', required }: Props) {
  return (
    <>
      {AXES.map(({ name, label, index }) => {
        const edit = (e: { currentTarget: HTMLInputElement }) => onEdit(index, e.currentTarget.value);
        return (
          <span key={name}>
            <label for={`${idPrefix}-${name}`}>{label}</label>
            <input
              id={`${idPrefix}-${name}`}
              type="number"
              step="any"
              required={required}
              value={value?.[index] ?? ''}
              {...(editOn === 'change' ? { onChange: edit } : { onInput: edit })}
            />
          </span>
        );
      })}
    </>
  );
}
