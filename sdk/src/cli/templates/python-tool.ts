/** The files `agent-tools init <id> --runtime python` writes: a working tool and its unittest. */
export function pythonToolFiles(toolId: string): Record<string, string> {
  return {
    "code/function.py": `class AgentSpaceV1Tool:
    """${toolId}: replace the greeting with what the tool does (docs/authoring.md)."""

    def __init__(self, tool_id, tool_data):
        # tool_data is the full registry record; configuration is in tool_parameters.
        self.tool_id = tool_id
        self.greeting = tool_data.get("tool_parameters", {}).get("greeting", "Hello")

    def execute(self, input_data):
        # input_data matches tool_api_spec.entrypoints.execute.input; return anything JSON-serialisable.
        return {"message": f"{self.greeting}, {input_data['name']}!"}

    def execute_command(self, command_name, data):
        # Management commands: AgentTools.executeCommand(tool_id, name, data).
        if command_name == "set_greeting":
            self.greeting = str(data["greeting"])
            return {"greeting": self.greeting}
        raise NotImplementedError(f"Unknown command: {command_name}")
`,
    "tests/test_function.py": `import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "code"))
from function import AgentSpaceV1Tool  # noqa: E402


class ToolTest(unittest.TestCase):
    def test_execute_greets_by_name(self):
        tool = AgentSpaceV1Tool("${toolId}", {"tool_parameters": {"greeting": "Hello"}})
        self.assertEqual(tool.execute({"name": "Ada"}), {"message": "Hello, Ada!"})

    def test_set_greeting_changes_later_calls(self):
        tool = AgentSpaceV1Tool("${toolId}", {"tool_parameters": {}})
        self.assertEqual(tool.execute_command("set_greeting", {"greeting": "Hi"}), {"greeting": "Hi"})
        self.assertEqual(tool.execute({"name": "Ada"}), {"message": "Hi, Ada!"})


if __name__ == "__main__":
    unittest.main()
`,
  };
}
