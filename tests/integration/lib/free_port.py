"""A loopback port for a test's own server."""
import socket


def free_port():
    """A port on 127.0.0.1 that was free a moment ago and has no listener now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
