"""Files in and out: reading UTF-8 lines, outputs written whole (never over yours without `--overwrite`),
`OUT.partial` and `--resume`, and the progress bar on standard error (Keras' `Progbar`; the others need only the
standard library)."""
