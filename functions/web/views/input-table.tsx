import { inputFields } from "../input-fields.js";
import { DataTable } from "./data-table.js";

/** The input schema's properties as a table: name, type, whether required, description and constraints. */
export function InputTable({ schema }: { schema: Record<string, unknown> | undefined }) {
  const fields = schema ? inputFields(schema) : [];
  if (fields.length === 0) return <p class="muted">This tool declares no input properties.</p>;
  return (
    <DataTable name="input" columns={["Name", "Type", "Required", "Description"]}>
      {fields.map((field) => (
        <tr>
          <td>
            <code>{field.name}</code>
          </td>
          <td>{field.type}</td>
          <td>{field.required ? "yes" : "no"}</td>
          <td>
            {field.description}
            {field.notes.length > 0 ? <div class="muted">{field.notes.join("; ")}</div> : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
