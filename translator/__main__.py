from translator.cli import main

raise SystemExit(main())
