"""A real uvicorn server for an app, in a thread of this process: for the load test and the browser test."""

import contextlib
import socket
import threading
import time

from translator.defaults import DEFAULT_HOST


@contextlib.contextmanager
def background_server(app, host=DEFAULT_HOST):
    """Serves `app` from a thread on a free port of `host`; yields its base URL.

    The socket is bound here (port 0: the OS picks a free one) and handed to
    uvicorn, so there is no race between finding a port and binding it.
    """
    import uvicorn

    # IPPROTO_TCP named, not left as 0: asyncio turns Nagle's algorithm off (TCP_NODELAY)
    # only on sockets that say they are TCP, and with it on, each response waits ~40 ms
    # for the client's delayed acknowledgement.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
