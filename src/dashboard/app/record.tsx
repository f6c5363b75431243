import type { Json } from './api.js';

/** The record of what was clicked, as the API answered it. */
export function RecordPanel({ title, record, onClose }: { title: string; record: Json; onClose: () => void }) {
  return (
    <section class="record" aria-label={title}>
      <div class="record-head">
        <h2>{title}</h2>
        <button type="button" onClick={onClose} aria-label="Close the record">
          ×
        </button>
      </div>
      <pre>{JSON.stringify(record, null, 2)}</pre>
    </section>
  );
}

/** A message for a failed call, read out by screen readers. */
export function ErrorLine({ error }: { error: string | null }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}
