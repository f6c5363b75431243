import type { ComponentChildren } from 'preact';

interface Props {
  class: string;
  caption: ComponentChildren;
  /** The header row's names, left to right. */
  columns: string[];
  /** The body's class, where something (a test, the stylesheet) finds the rows by it. */
  bodyClass?: string;
  /** The rows. */
  children: ComponentChildren;
}

/** A table of records: its caption, a header row of column names (scoped for screen readers), then the rows. */
export function Table({ class: className, caption, columns, bodyClass, children }: Props) {
  return (
    <table class={className}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody class={bodyClass}>{children}</tbody>
    </table>
  );
}
