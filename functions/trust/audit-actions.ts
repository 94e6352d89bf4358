/**
 * Every action an audit event can name, with the write it records: the list
 * docs/design/publisher-trust.md ("Audit log") documents, checked against this table by
 * test/functions/routes/audit-log.test.ts. Routes can only name these (`AuditAction`).
 */
export const AUDIT_ACTIONS = {
  publish: "POST /tools/upload, POST /tools/uploads and POST /tools/uploads/{uploadId}/complete",
  update: "PUT /tools/{id}",
  deprecate: 'PATCH /tools/{id}/versions/{v} with {"status": "deprecated"}',
  yank: 'PATCH /tools/{id}/versions/{v} with {"status": "yanked"}',
  activate: 'PATCH /tools/{id}/versions/{v} with {"status": "active"}',
  "status-change":
    "PATCH /tools/{id}/versions/{v} refused before its body named a valid status (a bad " +
    "path, or a body that is not JSON, too large, too deep or without a known status)",
  delete: "DELETE /tools/{id} and DELETE /tools/{id}/versions/{v}",
  "token.create": "POST /tokens",
  "token.revoke": "DELETE /tokens/{name}",
  "key.register": "PUT /publishers/{name}/keys",
  "key.revoke": "DELETE /publishers/{name}/keys/{key_id}",
  doctor: "POST /registry/doctor",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
