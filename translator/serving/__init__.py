"""The HTTP server: dynamic batching of requests with a bounded queue (`batcher`), the FastAPI app (`server`) and
the page it serves (`static/`)."""
