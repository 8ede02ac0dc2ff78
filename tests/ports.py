"""Free loopback ports for tests that start servers in processes of their own."""

import socket


def free_ports(count):
    """Ports nothing listens on now (held open together, so they differ).

    >>> first, second = free_ports(2)
    >>> first != second
    True
    """
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()
