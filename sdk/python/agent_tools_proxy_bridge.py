"""Inside a sandbox granted network hosts: makes the SDK's filtering proxy reachable over TCP.

The sandbox's network namespace holds only `lo`; the proxy listens on a unix socket outside it,
bound into the sandbox at $AGENT_TOOLS_PROXY_SOCKET. This bridge listens on 127.0.0.1:PORT (the
port HTTP_PROXY names) and copies each connection to that socket, so ordinary HTTP clients work.
Each connection starts with the token line the proxy requires ($AGENT_TOOLS_PROXY_TOKEN): the
proxy serves this tool alone, whoever else reaches its socket.
"""
import socket
import threading


def _pump(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    finally:
        for sock, how in ((target, socket.SHUT_WR), (source, socket.SHUT_RD)):
            try:
                sock.shutdown(how)
            except OSError:
                pass


def _serve(listener, socket_path, token_line):
    while True:
        client, _ = listener.accept()
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(socket_path)
            upstream.sendall(token_line)
        except OSError:
            client.close()
            upstream.close()
            continue
        threading.Thread(target=_pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=_pump, args=(upstream, client), daemon=True).start()


def start_bridge(socket_path, token, port):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    token_line = f"agent-tools-proxy-token {token}\r\n".encode("ascii")
    threading.Thread(target=_serve, args=(listener, socket_path, token_line), daemon=True).start()
