import { inputFields } from "../input-fields.js";

/** The input schema's properties as a table: name, type, whether required, description and constraints. */
export function InputTable({ schema }: { schema: Record<string, unknown> | undefined }) {
  const fields = schema ? inputFields(schema) : [];
  if (fields.length === 0) return <p class="muted">This tool declares no input properties.</p>;
  return (
    <div class="table">
      <table class="input">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
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
        </tbody>
      </table>
    </div>
  );
}
