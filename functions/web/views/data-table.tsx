import type { Child } from "hono/jsx";

/** A table that scrolls sideways on its own on a narrow screen, rather than the page. */
export function DataTable({ name, columns, children }: { name: string; columns: readonly string[]; children?: Child }) {
  return (
    <div class="table">
      <table class={name}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
