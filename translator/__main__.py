from translator.cli import main

if __name__ == "__main__":  # not when imported, as pytest's doctest collection does
    raise SystemExit(main())
