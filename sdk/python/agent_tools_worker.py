"""Agent Tools Python worker: hosts one AgentSpaceV1Tool for the Node SDK.

Protocol (one JSON document per line): the SDK writes requests on fd 3 and reads replies on fd 4,
so whatever the tool prints on stdout/stderr goes to the SDK's log and never into the protocol.

  first request  {"code_dir", "module_name", "tool_id", "tool_data", "extra_paths"}
  then           {"op": "execute", "input": ...} | {"op": "command", "name": ..., "data": ...}
  each reply     {"ok": true, "value": ...} | {"ok": false, "error": {"kind", "type", "message", "traceback"[, "errno", "filename"]}}

`kind` is "load" (import or constructor failed), "tool" (the tool raised), "output" (the value is
not JSON-serialisable) or "protocol". The worker exits when fd 3 reaches end of file.
"""
import os
import sys

REQUESTS_FD = 3
REPLIES_FD = 4
PROXY_BRIDGE_PORT = 3128  # SANDBOX_PROXY_PORT in sandbox/tool-sandbox.ts


class LoadError(Exception):
    pass


def os_error_of(error):
    """The OSError behind a failure (itself, urllib's `reason`, or a cause), for errno and filename."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, OSError) and error.errno is not None:
            return error
        error = getattr(error, "reason", None) if isinstance(getattr(error, "reason", None), BaseException) else (error.__cause__ or error.__context__)
        seen += 1
    return None


def describe(error, kind):
    import traceback  # imported lazily: it costs milliseconds of start-up and is only needed on failure

    described = {
        "kind": kind,
        "type": type(error).__name__,
        "message": str(error),
        "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__)),
    }
    os_error = os_error_of(error)
    if os_error is not None:
        described["errno"] = os_error.errno
        if isinstance(os_error.filename, str):
            described["filename"] = os_error.filename
    return described


def not_serialisable(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def make_codec():
    """(loads, dumps) on the C accelerator that `json` itself uses. Importing `json` would also pull
    in `re` and `enum`, about half of this worker's start-up; the pure-Python module is the fallback."""
    try:
        import _json

        class Context:
            strict = True
            object_hook = None
            object_pairs_hook = None
            parse_float = float
            parse_int = int

            @staticmethod
            def parse_constant(name):
                raise ValueError(f"{name} is not valid JSON")

        scan = _json.make_scanner(Context())
        # A markers dict turns on cycle detection; allow_nan=False refuses NaN and Infinity.
        markers = {}
        encoder = _json.make_encoder(markers, not_serialisable, _json.encode_basestring_ascii, None, ":", ",", False, False, False)

        def dumps(value):
            markers.clear()  # a failed encode leaves entries behind (json makes a fresh dict per call)
            return "".join(encoder(value, 0))

        return (lambda text: scan(text, 0)[0]), dumps
    except (ImportError, AttributeError, TypeError):
        import json

        encoder = json.JSONEncoder(allow_nan=False, separators=(",", ":"))
        return json.loads, encoder.encode


loads, dumps = make_codec()


def encode(reply):
    return (dumps(reply) + "\n").encode()


def encode_value(value):
    try:
        return encode({"ok": True, "value": value})
    except (TypeError, ValueError, RecursionError) as error:
        error = TypeError(f"the tool returned a value that is not JSON-serialisable: {error}")
        return encode({"ok": False, "error": describe(error, "output")})


def load_tool(init):
    import importlib.util

    code_dir = init["code_dir"]
    # code/ first, so a tool imports its sibling modules; then any extra site directories.
    sys.path.insert(0, code_dir)
    sys.path.extend(init.get("extra_paths", []))
    entry = os.path.join(code_dir, "function.py")
    if not os.path.isfile(entry):
        raise LoadError(f"{entry} does not exist; a Python tool needs code/function.py")
    module_name = init["module_name"]
    spec = importlib.util.spec_from_file_location(module_name, entry)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    tool_class = getattr(module, "AgentSpaceV1Tool", None)
    if tool_class is None:
        raise LoadError("code/function.py defines no class named AgentSpaceV1Tool")
    return tool_class(init["tool_id"], init["tool_data"])


def handle(tool, request):
    op = request.get("op")
    if op == "execute":
        return tool.execute(request.get("input"))
    if op == "command":
        if not hasattr(tool, "execute_command"):
            raise NotImplementedError("this tool defines no execute_command method")
        return tool.execute_command(request.get("name"), request.get("data"))
    raise LoadError(f"unknown op {op!r}")


def flush_tool_output():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def start_proxy_bridge():
    """A sandbox granted network hosts reaches the SDK's filtering proxy through a bound unix socket."""
    socket_path = os.environ.get("AGENT_TOOLS_PROXY_SOCKET")
    if socket_path:
        from agent_tools_proxy_bridge import start_bridge

        start_bridge(socket_path, os.environ.get("AGENT_TOOLS_PROXY_TOKEN", ""), PROXY_BRIDGE_PORT)


def main():
    start_proxy_bridge()
    requests = os.fdopen(REQUESTS_FD, "rb")
    replies = os.fdopen(REPLIES_FD, "wb", buffering=0)
    first = requests.readline()
    if not first:
        return
    try:
        tool = load_tool(loads(first.decode()))
        reply = encode({"ok": True, "value": None})
    except BaseException as error:  # the SDK reports any load failure, even SystemExit, as a load error
        reply = encode({"ok": False, "error": describe(error, "load")})
        tool = None
    flush_tool_output()
    replies.write(reply)
    if tool is None:
        return
    for line in requests:
        try:
            reply = encode_value(handle(tool, loads(line.decode())))
        except BaseException as error:  # a tool's sys.exit() fails the call, not the worker
            reply = encode({"ok": False, "error": describe(error, "tool")})
        flush_tool_output()
        replies.write(reply)


if __name__ == "__main__":
    main()
